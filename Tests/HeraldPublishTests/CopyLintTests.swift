import Foundation
import HeraldCore
import HeraldPublish
import Testing

/// Apple's notification guidance (seed 004) as lint over alert and story copy.
@Suite struct CopyLintTests {
    func app(_ campaigns: [CampaignSpec], name: String = "Weather") throws -> AppSpec {
        AppSpec(
            slug: try Slug("weather"), name: name, platform: .ios, bundleID: "com.a.b", defaultLocale: try LocaleTag("en"),
            locales: [try LocaleTag("de"), try LocaleTag("en")], campaigns: campaigns)
    }

    func alert(_ locale: String = "en", title: String = "Hello", message: String, button: String? = nil, status: CampaignStatus = .active) throws
        -> CampaignSpec
    {
        CampaignSpec(
            key: try Slug("a"), kind: .alert, name: "A", status: status, messageKey: try MessageKey("2026/05/01"),
            content: [
                try LocaleTag(locale): .alert(
                    AlertContent(title: title, message: message, actionURL: button == nil ? nil : try LinkURL("app://x"), actionButton: button))
            ])
    }

    func rules(_ campaign: CampaignSpec, appName: String = "Weather") throws -> [CopyLint.Rule] {
        CopyLint.findings(tenant: try Slug("t"), app: try app([campaign], name: appName)).map(\.rule)
    }

    @Test func textLongerThanAboutTwoLines() throws {
        #expect(try rules(alert(message: String(repeating: "a", count: CopyLint.twoLines))) == [])
        #expect(try rules(alert(message: String(repeating: "a", count: CopyLint.twoLines + 1))) == [.tooLong])
        let story = CampaignSpec(
            key: try Slug("s"), kind: .story, name: "S",
            content: [try LocaleTag("en"): .story(StoryContent(pushText: String(repeating: "b ", count: 50), pages: [StoryPage(image: try HTTPURL("https://x.example/1.jpg"))]))])
        #expect(try rules(story) == [.tooLong])
    }

    @Test func textThatNamesTheApp() throws {
        #expect(try rules(alert(message: "Thanks for installing Weather & friends")) == [.namesApp])
        #expect(try rules(alert(title: "WEATHER news", message: "Rain at noon.")) == [.namesApp])
        #expect(try rules(alert(message: "Weatherproof jackets are in.")) == [])  // a word of its own only
        let finding = CopyLint.findings(tenant: try Slug("t"), app: try app([try alert(message: "Weather says hi.")]))
        #expect(finding.first?.description == "t/weather/a [en] message: names the app (“Weather”): people reading it are in the app already")
    }

    /// An app name may match inside a character (its line feed in a CR LF, one character):
    /// the text around the match is then read by scalar (it used to crash the publish).
    @Test func aMatchInsideACharacterIsReadByScalar() throws {
        #expect(try rules(alert(message: "\r\nFoo"), appName: "\nFoo") == [.namesApp])
        #expect(try rules(alert(message: "Hello\r\nFoo is here"), appName: "\nFoo") == [.namesApp])
        #expect(try rules(alert(message: "Rain\r\nat noon"), appName: "Rain\r") == [.namesApp])
        #expect(try rules(alert(message: "Hello\r\nFoosball"), appName: "\nFoo") == [])
    }

    @Test func actionButtonsShortAndInTitleCase() throws {
        #expect(try rules(alert(message: "m", button: "Take the tour")) == [.buttonCase])
        #expect(CopyLint.titleCased("take the tour of the app") == "Take the Tour of the App")
        #expect(try rules(alert(message: "m", button: "Take the Tour")) == [])
        #expect(try rules(alert(message: "m", button: "See Everything That Is New Today")) == [.longButton])
        // Title case is English: German capitalises nouns only.
        #expect(try rules(alert("de", message: "m", button: "Jetzt ansehen")) == [])
        // Without an action URL the button is never shown: nothing to lint.
        #expect(try rules(alert(message: "m", button: nil)) == [])
    }

    @Test func textThatTellsPeopleWhatToPress() throws {
        #expect(try rules(alert(message: "Tap OK to see the radar.")) == [.pressInstruction])
        #expect(try rules(alert("de", message: "Tippen Sie auf Weiter.")) == [.pressInstruction])
        #expect(try rules(alert(message: "Rain is coming at noon.")) == [])
    }

    /// Publish warns about live campaigns only (as its other warnings); the board reviews drafts too.
    @Test func publishWarnsAboutLiveCopy() throws {
        let live = try alert(message: "Tap here, Weather fans")
        let draft = try CampaignSpec(key: Slug("b"), kind: .alert, name: "B", status: .draft, content: live.content)
        let tenant = TenantSpec(slug: try Slug("t"), name: "T", apps: [try app([live, draft])])
        let warnings = SiteCompiler().compile([tenant], at: Date()).warnings
        #expect(warnings.contains("t/weather/a [en] message: names the app (“Weather”): people reading it are in the app already"))
        #expect(warnings.contains { $0.hasPrefix("t/weather/a [en] message: tells people what to press") })
        #expect(!warnings.contains { $0.hasPrefix("t/weather/b ") })
    }

    func local(_ key: String = "l", body: String, action: String? = nil, fireAt: String = "2026-12-24T09:00", hasAction: Bool = true) throws
        -> CampaignSpec
    {
        CampaignSpec(
            key: try Slug(key), kind: .local, name: "L", status: .active,
            content: [try LocaleTag("en"): .local(LocalContent(body: body, action: action))],
            localNotification: LocalNotification(fireDate: try FireDate(fireAt), hasAction: hasAction))
    }

    /// Seed 004 on local notifications: sentence case with a period, no app name, about two
    /// lines, the action in title case.
    @Test func localNotificationCopy() throws {
        #expect(try rules(local(body: "A storm is on its way. See when it reaches you.", action: "See Forecast")) == [])
        #expect(try rules(local(body: "a storm is on its way.")) == [.sentenceCase])
        #expect(try rules(local(body: "A storm is on its way")) == [.sentenceCase])
        #expect(try rules(local(body: "A Storm Is On Its Way.")) == [.sentenceCase])
        #expect(try rules(local(body: "Is a storm on its way? \u{201C}Yes.\u{201D}")) == [])
        #expect(try rules(local(body: "Weather says a storm is near.")) == [.namesApp])
        #expect(try rules(local(body: String(repeating: "Rain. ", count: 20).trimmingCharacters(in: .whitespaces))).contains(.tooLong))
        #expect(try rules(local(body: "Rain soon.", action: "see forecast")) == [.buttonCase])
        // Without an action, no action label is linted (none is shown).
        #expect(try rules(local(body: "Rain soon.", hasAction: false)) == [])
    }

    /// One notification per event: two local campaigns with the same body within a minute of
    /// each other, on one device's clock (an instant and a wall-clock time meet in some zone).
    @Test func oneLocalNotificationPerEvent() throws {
        func findings(_ campaigns: [CampaignSpec]) throws -> [String] {
            CopyLint.findings(tenant: try Slug("t"), app: try app(campaigns)).filter { $0.rule == .oneNotificationPerEvent }.map(\.campaign.rawValue)
        }
        let first = try local("a", body: "Rain soon.", fireAt: "2026-12-24T09:00")
        #expect(try findings([first, try local("b", body: "rain soon", fireAt: "2026-12-24T09:00:45")]) == ["a", "b"])
        #expect(try findings([first, try local("b", body: "Rain soon.", fireAt: "2026-12-24T09:01:01")]) == [])
        #expect(try findings([first, try local("b", body: "Snow soon.", fireAt: "2026-12-24T09:00")]) == [])
        // 09:00 on the clock of a device at +01:00 is 08:00Z: the two meet there.
        #expect(try findings([first, try local("b", body: "Rain soon.", fireAt: "2026-12-24T08:00:00Z")]) == ["a", "b"])
        #expect(try findings([first, try local("b", body: "Rain soon.", fireAt: "2026-12-24T08:07:00Z")]) == [])
    }
}
