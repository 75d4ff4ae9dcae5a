import HeraldCore
import HeraldPublish
import Testing

@Suite struct SitePathTests {
    @Test func layoutMatchesDesign() throws {
        let (tenant, app, locale, campaign) = (try Slug("acme"), try Slug("weather"), try LocaleTag("pt-br"), try Slug("tour"))
        #expect(SitePath.controlFile(tenant: tenant, app: app, locale: locale).description == "acme/weather/pt-BR/control.json")
        #expect(SitePath.notificationsFile(tenant: tenant, app: app, locale: locale).description == "acme/weather/pt-BR/notifications.plist")
        #expect(SitePath.storyFile(tenant: tenant, app: app, locale: locale, campaign: campaign).description == "acme/weather/pt-BR/stories/tour.json")
        #expect(
            SitePath.storyFile(tenant: tenant, app: app, locale: locale, campaign: campaign, push: true).description
                == "acme/weather/pt-BR/stories/tour.push.json")
        #expect(
            SitePath.viewFile(tenant: tenant, app: app, locale: locale, campaign: campaign, view: try Slug("full")).description
                == "acme/weather/pt-BR/views/tour/full.html")
    }

    /// No segment can be empty, "." or "..", or hold a separator: the values that build paths refuse them.
    @Test(arguments: ["..", ".", "", "a/b", "a\\b"])
    func segmentsCannotEscape(_ raw: String) {
        #expect(throws: ValidationError.self) { try Slug(raw) }
        #expect(throws: ValidationError.self) { try LocaleTag(raw) }
    }

    @Test func manifestPathsThatCouldEscapeAreRefused() {
        #expect(SitePath(relative: "acme/weather/en/control.json") != nil)
        for bad in ["../etc/passwd", "acme/../../x", "/abs/path", "acme//x", "acme/.hidden", "x"] {
            #expect(SitePath(relative: bad) == nil, "\(bad)")
        }
    }
}
