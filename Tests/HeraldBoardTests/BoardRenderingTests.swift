import Foundation
@testable import HeraldBoard
import HeraldCore
import HeraldPublish
import HeraldSite
import HeraldTestSupport
import Testing

/// The board rendered from values: no database, no browser (BoardCommandTests opens the real
/// thing in Chromium).
@Suite struct BoardRenderingTests {
    let files = Board.render(BoardFixture.input())

    func page(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let file = try #require(files.first { $0.path.description == path }, "no \(path)", sourceLocation: sourceLocation)
        return String(decoding: file.bytes, as: UTF8.self)
    }

    @Test func theSameInputGivesTheSameBytesAndAnUnchangedBoardWritesNothing() throws {
        #expect(Board.render(BoardFixture.input()) == files)
        let paths = files.map(\.path.description)
        #expect(paths.contains("board/index.html") && paths.contains("board/history.html") && paths.contains("board/assets/board.css"))
        #expect(paths.contains("board/demo/weather/spring-sale.html") && paths.contains("board/mallory/evil-app/xss.html"))
        #expect(paths.contains("board/demo/weather.html") && paths.contains("board/mallory/evil-app.html"))
        #expect(paths.count == 3 + 2 + 8 + 2)  // index, history, stylesheet; 2 apps' pages; 8 demo campaigns, 2 hostile ones
        try withTemporaryDirectory { root in
            let writer = SiteWriter(root: root)
            #expect(try writer.sync(files, scope: [[Board.folder]]).written.count == files.count)
            let again = try writer.sync(Board.render(BoardFixture.input()), scope: [[Board.folder]])
            #expect(again.written.isEmpty && again.removed.isEmpty && again.unchanged == files.count)
        }
    }

    /// Campaign text is attacker-controlled: every value is escaped wherever it lands (text,
    /// attributes, SVG, an inline view's srcdoc), and a `javascript:` link is never a link.
    @Test func everyValueIsEscaped() throws {
        for file in files where file.path.description.hasSuffix(".html") {
            let html = String(decoding: file.bytes, as: UTF8.self)
            for raw in ["<script", "<b>bold", "<img", "onerror=\"", "</iframe><script>", "href=\"javascript:"] {
                #expect(!html.contains(raw), "\(file.path) holds \(raw) unescaped")
            }
        }
        let xss = try page("board/mallory/evil-app/xss.html")
        #expect(xss.contains("&lt;script&gt;window.__pwned = 1&lt;/script&gt;&quot;&#39; &amp; &lt;b&gt;bold&lt;/b&gt;"))
        #expect(xss.contains("javascript:window.__pwned=3"))  // shown as text: the action URL the alert opens
        let banner = try page("board/mallory/evil-app/xss-banner.html")
        // The frame's own policy first (nothing loads from inside it), then the campaign's HTML, escaped.
        #expect(
            banner.contains(
                #"srcdoc="&lt;meta http-equiv=&quot;Content-Security-Policy&quot; content=&quot;default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; img-src data:&quot;&gt;&lt;/iframe&gt;&lt;script&gt;parent.__pwned=4&lt;/script&gt;&quot;""#))
        #expect(banner.contains(#"<iframe sandbox="" "#))
        // No script on any page, and the policy that keeps every request inside the folder.
        let index = try page("board/index.html")
        #expect(index.contains(#"<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'">"#))
    }

    @Test func statesAsADeviceSeesThemNow() throws {
        let index = try page("board/demo/weather.html")
        for (campaign, state) in [
            ("spring-sale", "live"), ("welcome", "live"), ("tour", "live"), ("summer", "scheduled"), ("winter", "ended"),
            ("draft-one", "draft"), ("paused-one", "paused"), ("old-one", "archived"),
        ] {
            #expect(index.contains(#"<tr data-campaign="\#(campaign)" data-state="\#(state)">"#), "\(campaign) should be \(state)")
        }
        #expect(index.contains("scheduled · starts in 3 days"))
        #expect(index.contains("ended 2 days ago"))
        #expect(index.contains(#"<svg class="timeline""#))
        #expect(index.contains("Schedules of Weather from 2026-05-21 10:00 UTC to 2026-06-04 10:00 UTC"))
    }

    /// "Now" to the minute: a start 1 min 57 s away is "in 2 minutes", an end 30 s ago is not
    /// "now", and the timeline's line and label fall on the board's minute.
    @Test func nowToTheMinute() throws {
        let at = Date(timeIntervalSince1970: 1_779_926_760)  // 2026-05-28T00:06:00Z
        #expect(Relative.phrase(from: at, to: at.addingTimeInterval(117)) == "in 2 minutes")
        #expect(Relative.phrase(from: at, to: at.addingTimeInterval(-30)) == "1 minute ago")
        #expect(Relative.phrase(from: at, to: at.addingTimeInterval(-20)) == "under a minute ago")
        #expect(Relative.phrase(from: at, to: at.addingTimeInterval(45)) == "in 1 minute")
        #expect(Relative.phrase(from: at, to: at.addingTimeInterval(3 * 3_600)) == "in 3 hours")
        var input = BoardFixture.input()
        input.at = at.addingTimeInterval(18 * 60 + 40)  // 00:24:40, as from cron (no --at)
        input.atIsExplicit = false
        let app = String(decoding: try #require(Board.render(input).first { $0.path.description == "board/demo/weather.html" }).bytes, as: UTF8.self)
        #expect(app.contains(">2026-05-28 00:24 UTC</text>"), "the timeline's now-label")
    }

    /// Times in UTC, each with its instant on hover and no zone assumed; badge, table, timeline
    /// and matrix agree on a campaign starting within the board's minute.
    @Test func timesInUTCAndOneStateEverywhere() throws {
        let app = try page("board/demo/weather.html")
        #expect(app.contains(#"<time datetime="2026-05-25T10:00:00Z" title="2026-05-25T10:00:00Z: in UTC; the board does not assume your time zone">2026-05-25 10:00 UTC</time>"#))
        #expect(app.contains(#"<span class="badge scheduled" title="starts 2026-05-31T11:00:00Z (UTC; the board does not assume your time zone)">scheduled · starts in 3 days</span>"#))

        let minute = Date(timeIntervalSince1970: 1_779_927_840)  // 2026-05-28T00:24:00Z
        var input = BoardFixture.input()
        input.at = minute.addingTimeInterval(40)  // from cron: 00:24:40, the board's minute 00:24
        input.atIsExplicit = false
        input.tenants[0].apps[0].campaigns = input.tenants[0].apps[0].campaigns.map { campaign in
            guard campaign.key.rawValue == "summer" else { return campaign }
            var starting = campaign
            starting.startsAt = minute.addingTimeInterval(20)  // 00:24:20: not yet at 00:24
            return starting
        }
        let files = Board.render(input)
        func text(_ path: String) -> String { files.first { $0.path.description == path }.map { String(decoding: $0.bytes, as: UTF8.self) } ?? "" }
        #expect(text("board/demo/weather.html").contains(#"<tr data-campaign="summer" data-state="scheduled">"#))
        #expect(text("board/demo/weather.html").contains("Summer (summer): scheduled · starts in under a minute"))
        #expect(text("board/demo/weather/summer.html").contains("scheduled · starts in under a minute"))
        let matrix = Board.matrix(input, tenant: try Slug("demo"), app: try Slug("weather"), campaign: try Slug("summer"))
        #expect(matrix.first?.cells.first { $0.locale.rawValue == "en" }?.verdict.hasPrefix("not started") == true, "\(matrix)")
    }

    /// Charts span the campaign's own days (no zeros from before it started), have axis titles
    /// with units, chart delivered, and mark today's counts as so far.
    @Test func chartsSpanTheCampaignsOwnPeriod() throws {
        var input = BoardFixture.input()
        // The alert started 3 days before the board's day: its chart starts that day, not 30 days before.
        input.daily = input.daily.filter { $0.campaign != "welcome" || $0.day >= "2026-05-25" }
        let files = Board.render(input)
        let welcome = String(decoding: try #require(files.first { $0.path.description == "board/demo/weather/welcome.html" }).bytes, as: UTF8.self)
        #expect(welcome.contains("Delivery, 2026-05-25 … 2026-05-28"))
        #expect(welcome.contains(">Events per day</text>") && welcome.contains(">Day (UTC)</text>") && welcome.contains(">Clicks per impression (%)</text>"))
        #expect(welcome.contains(#"<polyline class="delivered""#))
        #expect(welcome.contains(#"<rect class="partial""#) && welcome.contains(">today, so far</text>"))
        #expect(!welcome.contains(">04-29</text>"), "no day before the campaign started")
        // A campaign without a start begins on its first day with events.
        let spring = try page("board/demo/weather/spring-sale.html")
        #expect(spring.contains("Delivery, 2026-05-19 … 2026-05-28"))
    }

    /// A story card plays the pages as Pushwoosh's player does: durations as it uses them, a
    /// progress bar per page it plays, the button only when it shows, texts only when not empty;
    /// a page stored before the player's rules says what the player changes.
    @Test func storyCardsPlayPagesAsThePlayerDoes() throws {
        let tour = try page("board/demo/weather/tour.html")
        #expect(tour.contains(#"<span class="story-button">Open radar</span>"#))
        #expect(tour.contains("Page 1: 5 s · button opens weather://radar</p>"))
        #expect(tour.contains("Page 1: 5 s (the player&#39;s default)</p>"))  // German: no duration given

        var input = BoardFixture.input()
        let en = BoardFixture.locale("en")
        let image = BoardFixture.url("https://cdn.example.com/demo/tour-1.jpg")
        input.tenants[0].apps[0].campaigns = try input.tenants[0].apps[0].campaigns.map { campaign in
            guard campaign.key.rawValue == "tour" else { return campaign }
            var stored = campaign
            stored.content[en] = .story(
                StoryContent(
                    pushText: "See what's new",
                    pages: [
                        StoryPage(image: image, duration: 60, buttonTitle: "Buy", title: "Sale", subtitle: ""),
                        StoryPage(image: try HTTPURL("https://cdn.example.com/ü.jpg"), title: "Dropped"),
                        StoryPage(image: image, link: try LinkURL("weather://radar"), buttonTitle: "Open"),
                    ]))
            return stored
        }
        let card = String(decoding: try #require(Board.render(input).first { $0.path.description == "board/demo/weather/tour.html" }).bytes, as: UTF8.self)
        let english = try #require(card.range(of: #"data-locale="en""#).map { String(card[$0.lowerBound...]) })
        // Two pages are played, so two bars; the dropped page says why.
        #expect(english.contains(#"<div class="progress"><span class="current"></span><span class="todo"></span></div>"#))
        #expect(english.contains(#"<div class="progress"><span class="done"></span><span class="current"></span></div>"#))
        #expect(english.contains("Page 1: 30 s · the file says 60 s: the player cuts it to 30 s · button &quot;Buy&quot; has no link: the player never shows it</p>"))
        #expect(english.contains("Page 2 is not played: image URL unreadable on iOS before 17: the player drops this page.</p>"))
        #expect(english.contains("Page 3: 5 s (the player&#39;s default) · button opens weather://radar</p>"))
        #expect(!english.contains(#"<span class="story-button">Buy</span>"#) && english.contains(#"<span class="story-button">Open</span>"#))
        #expect(english.contains(#"<p class="story-title">Sale</p>"#) && !english.contains(#"<p class="story-subtitle"></p>"#))
        #expect(!english.contains("Dropped</p>"))
    }

    @Test func eachCardSaysWhoseContentItShows() throws {
        let banner = try page("board/demo/weather/spring-sale.html")
        #expect(banner.contains(#"data-locale="pt-BR" data-source="en""#))
        #expect(banner.contains("Shows the en content: no pt-BR, pt content (fallback pt-BR → pt → en)."))
        #expect(banner.contains(#"data-locale="de" data-source="de""#))
        #expect(banner.contains("88 pt high, from the bottom"))  // the German entry view
        let story = try page("board/demo/weather/tour.html")
        #expect(story.contains("Not sent to pt-BR devices: the campaign is restricted to de, en."))
        #expect(story.contains(#"<div class="progress"><span class="current"></span><span class="todo"></span></div>"#))
        let alert = try page("board/demo/weather/welcome.html")
        #expect(alert.contains(#"<span class="alert-button">Take the tour</span><span class="alert-button">Remind Me Later</span><span class="alert-button cancel">Ignore</span>"#))
        #expect(!alert.contains(#"<span class="alert-button cancel">OK</span>"#))  // German and Portuguese inherit the action URL
        #expect(alert.contains("Shown when the app version is 2.0 or later."))
    }

    /// Publish's warnings and the copy lint on the cards they concern.
    @Test func warningsLandOnTheirCampaigns() throws {
        let summer = try page("board/demo/weather/summer.html")
        #expect(summer.contains("demo/weather/summer is active but appears in no file: its schedule is not running"))
        let welcome = try page("board/demo/weather/welcome.html")
        #expect(welcome.contains(#"data-rule="names-app""#) && welcome.contains(#"data-rule="button-case""#))
        #expect(welcome.contains("“Take the tour” is not in title case: “Take the Tour”"))
        let spring = try page("board/demo/weather/spring-sale.html")
        #expect(!spring.contains("data-rule=") && !spring.contains("appears in no file"))
        let app = try page("board/demo/weather.html")
        #expect(app.contains(#"<span class="count-warn">2 notes</span>"#))
    }

    /// A right-to-left override in a title: drawn as devices draw it, listed escaped, and linted on its card.
    @Test func invisibleTextIsShownEscaped() throws {
        var input = BoardFixture.input()
        let en = BoardFixture.locale("en")
        input.tenants[0].apps[0].campaigns = input.tenants[0].apps[0].campaigns.map { campaign in
            guard campaign.key.rawValue == "welcome", case .alert(var alert)? = campaign.content[en] else { return campaign }
            var changed = campaign
            alert.title = "Sale \u{202E}evil.exe\u{202C} ok"
            changed.content[en] = .alert(alert)
            return changed
        }
        let page = String(decoding: try #require(Board.render(input).first { $0.path.description == "board/demo/weather/welcome.html" }).bytes, as: UTF8.self)
        let card = try #require(CardsMatchPublishedFilesTests.card(page, locale: en))
        #expect(card.contains("<dt>Title</dt><dd>Sale ‹U+202E›evil.exe‹U+202C› ok</dd>"))
        #expect(card.contains(#"<li data-rule="invisible-text">"#) && card.contains("‹U+202E› right-to-left override"))
        #expect(!files.contains { String(decoding: $0.bytes, as: UTF8.self).contains("‹U+") })  // the fixture has none
    }

    /// Representative devices from the campaign's own bounds, decided by DevicePreview.
    @Test func theMatrixProbesEachBound() throws {
        let input = BoardFixture.input()
        let rows = Board.matrix(input, tenant: try Slug("demo"), app: try Slug("weather"), campaign: try Slug("spring-sale"))
        func row(_ label: String) throws -> MatrixRow {
            try #require(rows.first { $0.device.label.contains(label) }, "no row \(label) in \(rows.map(\.device.label))")
        }
        #expect(rows[0].cells.map(\.shown) == [true, true, true])
        #expect(rows[0].device.build == "2.9" && rows[0].device.wifi)
        #expect(try row("build 3.0: just outside all.appVersionLessThan 3.0").cells.first?.verdict == "all.appVersionLessThan: build 3.0 is not below 3.0")
        #expect(try row("flag hideSpringSale set").cells.first?.verdict == "all.flagNotSet: flag hideSpringSale is set")
        #expect(try row("off Wi-Fi").cells.first?.verdict.hasPrefix("no `any` condition holds") == true)
        #expect(try row("shown 4 launches ago").cells.allSatisfy(\.shown))
        #expect(try row("flag hideSpringSale set").device.previewArguments == [
            "--app-version", "2.9", "--os-version", "18.0", "--wifi", "--flag", "spring-sale=hideSpringSale",
        ])

        let alert = Board.matrix(input, tenant: try Slug("demo"), app: try Slug("weather"), campaign: try Slug("welcome"))
        #expect(alert.first?.cells.map(\.verdict) == ["next alert", "next alert", "next alert"])
        #expect(alert.first { $0.device.appVersion == "1.9" }?.cells.first?.verdict == "app version 1.9 is below MinVersion 2.0")
        #expect(alert.first { !$0.device.seen.isEmpty }?.cells.first?.verdict == "already seen (message key 2026/05/25)")
        let scheduled = Board.matrix(input, tenant: try Slug("demo"), app: try Slug("weather"), campaign: try Slug("summer"))
        #expect(scheduled.first?.cells.first { $0.locale.rawValue == "en" }?.verdict.hasPrefix("not started (starts 2026-05-31") == true)
    }

    @Test func chartsFromTheDailyCounts() throws {
        let spring = try page("board/demo/weather/spring-sale.html")
        let impressions = BoardFixture.daily.filter { $0.campaign == "spring-sale" && $0.event == "impression" }.reduce(0) { $0 + $1.events }
        #expect(spring.contains("<li><strong>\(impressions)</strong> impressions</li>"))
        #expect(spring.contains(#"<svg class="chart" viewBox="0 0 640 220" role="img" aria-labelledby="daily-t daily-d">"#))
        #expect(spring.contains(#"aria-labelledby="ctr-t ctr-d""#))
        let index = try page("board/index.html")
        #expect(index.contains("Top campaigns, 2026-04-29 … 2026-05-28"))
        #expect(try page("board/demo/weather/old-one.html").contains("No delivery events between 2026-04-29 … 2026-05-28."))
    }

    @Test func publishHistoryWithTheFilesEachRunChanged() throws {
        let history = try page("board/history.html")
        #expect(history.contains(#"<li class="changed">changed <code>mallory/evil-app/en/control.json</code></li>"#))
        #expect(history.range(of: "Run 2")?.lowerBound ?? history.endIndex < history.range(of: "Run 1")?.lowerBound ?? history.startIndex)

        let before = SiteManifest(files: ["a/b/en/control.json": "1", "a/b/en/notifications.plist": "2"])
        let after = SiteManifest(files: ["a/b/en/control.json": "3", "a/b/de/control.json": "4"])
        #expect(RunChanges.between(before, after) == [
            FileChange(path: "a/b/de/control.json", kind: .added), FileChange(path: "a/b/en/control.json", kind: .changed),
            FileChange(path: "a/b/en/notifications.plist", kind: .removed),
        ])
        #expect(RunChanges.between(nil, after).allSatisfy { $0.kind == .added })
        // One tenant's board: its files only, and no run that changed none of them.
        let runs = BoardFixture.runs
        #expect(runs[0].scoped(to: try Slug("demo"))?.changes == [FileChange(path: "demo/weather/en/control.json", kind: .added)])
        #expect(runs[1].scoped(to: try Slug("demo")) == nil)
        let scoped = Board.render(BoardFixture.input(tenants: [TenantSpec(slug: try Slug("demo"), name: "Demo", apps: [BoardFixture.weather])]))
        #expect(!scoped.contains { $0.path.description.contains("mallory") })
    }
}
