import Foundation
import HeraldCore
import HeraldStore
import HeraldTestSupport
import Synchronization
import Testing

/// `herald demo` and `herald board` against a real PostgreSQL, the board opened in a real
/// headless Chromium: clean pages that stay in their folder, each campaign × locale card with
/// its own text and fallback note, the device matrix cell by cell as `herald preview --json`
/// decides, a hostile tenant's text inert, and screenshots at a phone's and a desktop's width.
@Suite struct BoardCommandTests {
    static let hostileText = #"<script>window.__pwned = 1</script>"' & <b>bold</b> <img src=x onerror="window.__pwned=2">"#

    /// A tenant whose every text tries to act: names, titles, a button, a javascript: action
    /// URL, an inline view with a script.
    static var hostileYAML: String {
        let text = "'" + hostileText.replacingOccurrences(of: "'", with: "''") + "'"
        return """
            version: 1
            tenants:
            - slug: mallory
              name: \(text)
              apps:
              - slug: evil-app
                name: \(text)
                platform: ios
                bundleId: com.evil.app
                defaultLocale: en
                locales: [en]
                baseUrl: https://static.example.com/evil
                campaigns:
                - key: xss
                  kind: alert
                  name: \(text)
                  status: active
                  content:
                    en: {title: \(text), message: \(text), actionUrl: "javascript:window.__pwned=3", actionButton: \(text)}
                - key: long
                  kind: alert
                  name: A long alert
                  status: active
                  content:
                    en: {title: Long read, message: '\(String(repeating: "A long message that goes on. ", count: 120))', actionUrl: "https://example.com/more", actionButton: More}
                - key: xss-banner
                  kind: banner
                  name: \(text)
                  status: active
                  content:
                    en:
                      entry: v
                      views:
                      - {id: v, html: '</iframe><script>parent.__pwned=4</script>"', height: 120, origin: top}

            """
    }

    @Test func theDemoBoardInChromium() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                let browser = try Chromium(scratch: root)  // starts up while the demo runs
                defer { browser.close() }
                let review = root.appendingPathComponent("review")
                let published = root.appendingPathComponent("public")
                let demo = try herald.succeed(["demo", "--yes", "--out", published.path, "--board", review.path])
                #expect(demo.stdout.contains("6. review board"), "\(demo)")
                #expect(FileManager.default.fileExists(atPath: review.appendingPathComponent("board/index.html").path))
                let hostile = root.appendingPathComponent("hostile.yaml")
                try Data(Self.hostileYAML.utf8).write(to: hostile)
                try herald.succeed(["apply", "-f", hostile.path])

                // The whole board at one moment; again: nothing written, nothing touched (the writer's count, and
                // every mtime to the nanosecond).
                let at = Timestamp.format(Date())
                let first = try herald.succeed(["board", "--out", review.path, "--at", at])
                #expect(first.stdout.contains("open \(review.path)/board/index.html"), "\(first)")
                let mtimes = try Self.mtimes(review)
                let again = try herald.succeed(["board", "--out", review.path, "--at", at])
                #expect(again.stdout.hasPrefix("board: 0 written, \(mtimes.count) unchanged, 0 removed"), "\(again)")
                #expect(try Self.mtimes(review) == mtimes)
                #expect(try herald.succeed(["board", "--out", review.path, "--at", at, "--quiet"]).stdout.isEmpty)
                // One tenant's board (HERALD_TENANT, as for a tenant's operator): nothing of another tenant.
                // Without --at, as from cron: made again at once, it writes nothing either.
                let scoped = root.appendingPathComponent("scoped")
                let tenantOperator = InProcessHerald(database: database, environment: ["HERALD_TENANT": "demo"])
                let scopedAgain = try OneMinute.withinOneMinute {
                    try tenantOperator.succeed(["board", "--out", scoped.path])
                    return try tenantOperator.succeed(["board", "--out", scoped.path, "--quiet"])
                }
                #expect(scopedAgain.stdout.isEmpty, "\(scopedAgain)")
                let scopedIndex = try String(contentsOf: scoped.appendingPathComponent("board/index.html"), encoding: .utf8)
                #expect(scopedIndex.contains("only tenant <strong>demo</strong>") && !scopedIndex.contains("mallory"))
                #expect(!FileManager.default.fileExists(atPath: scoped.appendingPathComponent("board/mallory").path))
                // Never into a published folder: a whole-site publish would remove the board, and the board must not
                // touch the site.
                let refused = try herald.run(["board", "--out", published.path])
                #expect(refused.status == 64 && refused.stderr.contains("give the board its own folder"), "\(refused)")
                // Two boards into one folder at once: the second exits 75, as a second publish does.
                let holder = try HeraldDatabase(configuration: database, actor: "test")
                try holder.asOperator { session in
                    #expect(try session.tryFolderLock(review.path))
                    let busy = try herald.run(["board", "--out", review.path])
                    #expect(busy.status == 75 && busy.stderr.contains("another herald board is writing"), "\(busy)")
                }

                // One visit per page: what it loaded and logged, its script-free DOM, then what the
                // page is for (cards, matrix, screenshots).
                let folder = review.standardizedFileURL.absoluteString
                let pages = mtimes.keys.filter { $0.hasSuffix(".html") }.sorted()
                #expect(pages.count == 10, "\(pages)")  // index, history, 2 apps, 3 demo campaigns, 3 hostile ones
                var matrices: [String: [[String: Any]]] = [:]
                var shots: [(String, Data)] = []
                for page in pages {
                    let report = try browser.open(review.appendingPathComponent(page), width: 390, height: 844)
                    for request in report.requests {
                        #expect(request.hasPrefix(folder) || request == "about:srcdoc", "\(page) requested \(request), outside \(folder)")
                    }
                    #expect(report.requests.contains { $0.hasSuffix("board/assets/board.css") }, "\(report)")
                    #expect(report.failures.isEmpty, "\(report)")
                    // The hostile inline view's script is refused by the sandbox, which says so; nothing else complains.
                    let errors = report.errors.filter { !(page.contains("/mallory/") && $0.contains("Blocked script execution in 'about:srcdoc'")) }
                    #expect(errors.isEmpty, "\(report)")
                    let dom = try browser.evaluate("""
                        [document.querySelectorAll('script').length, typeof window.__pwned, document.querySelectorAll('img, [onerror]').length,
                         [...document.querySelectorAll('[href]')].filter(a => !/^(https?|file):/.test(a.href)).length,
                         document.documentElement.scrollWidth]
                        """) as? [Any] ?? []
                    #expect(dom.count == 5 && dom[0] as? Int == 0 && dom[1] as? String == "undefined" && dom[2] as? Int == 0 && dom[3] as? Int == 0, "\(page): \(dom)")
                    // Readable on a phone: nothing wider than its screen but what scrolls in its own box.
                    #expect(dom.last as? Int == 390, "\(page) is wider than a phone: \(dom)")
                    // An app's timeline shows its now-line as the page opens: on the screen, and inside
                    // the box the timeline scrolls in (which hides what lies past its edge).
                    let nowLines = try browser.evaluate("""
                        [...document.querySelectorAll('svg.timeline line.now')].map(l => { const r = l.getBoundingClientRect();
                          const box = l.closest('.chart-box').getBoundingClientRect();
                          return r.left >= Math.max(0, box.left) && r.right <= Math.min(390, box.right); })
                        """) as? [Bool] ?? []
                    #expect(!nowLines.contains(false), "\(page): a timeline's now-line is off the screen at 390 px")
                    if page == "board/demo/weather.html" { #expect(nowLines == [true], "\(page) has one timeline: \(nowLines)") }
                    if page.hasPrefix("board/demo/weather/") {
                        let campaign = String(page.dropFirst("board/demo/weather/".count).dropLast(".html".count))
                        try checkCards(browser, campaign: campaign)
                        matrices[campaign] = try matrixRows(browser)
                    }
                    if page.hasPrefix("board/demo/weather/") {
                        try checkPhoneLayout(browser, page: page)
                    }
                    if page == "board/demo/weather.html" {
                        try checkFilter(browser)
                    }
                    if page == "board/mallory/evil-app/long.html" {
                        // iOS scrolls a long message between the title and the buttons, which stay on the screen.
                        let fits = try browser.evaluate("""
                            (() => { const clip = document.querySelector('.phone-clip').getBoundingClientRect();
                              const title = document.querySelector('.alert-title').getBoundingClientRect();
                              const buttons = [...document.querySelectorAll('.alert-button')].map(b => b.getBoundingClientRect());
                              const message = document.querySelector('.alert-message');
                              return [title.top >= clip.top, buttons.every(b => b.bottom <= clip.bottom && b.height > 0),
                                      message.scrollHeight > message.clientHeight, getComputedStyle(message).overflowY]; })()
                            """) as? [Any] ?? []
                        #expect(fits.count == 4 && fits[0] as? Bool == true && fits[1] as? Bool == true && fits[2] as? Bool == true, "\(fits)")
                        #expect(fits.last as? String == "auto")
                    }
                    if page == "board/mallory/evil-app/xss.html" {
                        // The hostile text shows as text, whole, where it belongs.
                        let texts = try browser.evaluate("['h1', '.alert-title', '.alert-message', '.alert-button'].map(s => document.querySelector(s).textContent)") as? [String]
                        #expect(texts == Array(repeating: Self.hostileText, count: 4))
                    }
                    if page == "board/index.html" || page == "board/demo/weather/spring-sale.html" {
                        let name = page == "board/index.html" ? "index" : "spring-sale"
                        for (width, height) in [(390, 844), (1280, 900)] {
                            shots.append(("\(name)-\(width).png", try browser.screenshot(width: width, height: height)))
                        }
                    }
                }
                try checkScreenshots(browser, shots, root: root)
                try checkMatrices(matrices, herald: herald, at: at)
            }
        }
    }

    /// At a phone's width (the page is open at 390 px): the matrix shows every locale of every
    /// device, stacked, with its reason inside the screen; a story plays one page at a time in a
    /// phone-shaped frame that snaps; charts have axis titles and chart delivered too.
    func checkPhoneLayout(_ browser: Chromium, page: String) throws {
        let cells = try browser.evaluate("""
            [...document.querySelectorAll('table.matrix td')].map(td => { const r = td.getBoundingClientRect();
              const why = td.querySelector('.why'); return [td.dataset.locale, r.left >= 0 && r.right <= 390 && r.width > 0 && r.height > 0,
              why ? why.scrollWidth <= why.clientWidth + 1 : true, getComputedStyle(td, '::before').content]; })
            """) as? [[Any]] ?? []
        #expect(!cells.isEmpty, "\(page) has no matrix")
        for cell in cells {
            #expect(cell.count == 4 && cell[1] as? Bool == true && cell[2] as? Bool == true, "\(page): a matrix cell is off the screen or clipped: \(cell)")
            #expect(!["none", "normal", ""].contains(cell.last as? String ?? ""), "\(page): the stacked cell does not name its locale: \(cell)")
        }
        #expect(Set(cells.compactMap { $0.first as? String }) == ["de", "en", "pt-BR"], "\(page)")
        if page.hasSuffix("/tour.html") {
            let story = try browser.evaluate("""
                (() => { const card = document.querySelector('#card-en'); const pages = card.querySelector('.pages');
                  const story = card.querySelector('.story').getBoundingClientRect(); const first = card.querySelector('.page').getBoundingClientRect();
                  return [getComputedStyle(pages).scrollSnapType, story.height / story.width, Math.abs(first.width - pages.clientWidth) < 2,
                          pages.scrollWidth > pages.clientWidth, card.querySelector('.pages-cue').textContent]; })()
                """) as? [Any] ?? []
            #expect(story.count == 5 && (story[0] as? String)?.hasPrefix("x") == true, "\(story)")
            #expect(abs(((story.count > 1 ? story[1] as? Double : nil) ?? 0) - 19.5 / 9) < 0.05, "a story page is phone-shaped (9:19.5): \(story)")
            #expect(story.count == 5 && story[2] as? Bool == true && story[3] as? Bool == true, "one page at a time, the next one scrolled to: \(story)")
            #expect((story.last as? String)?.contains("scroll sideways") == true)
        }
        if page.hasSuffix("/spring-sale.html") {
            let chart = try browser.evaluate("""
                [[...document.querySelectorAll('svg.chart .axis-title')].map(t => t.textContent), document.querySelectorAll('svg.chart polyline.delivered').length]
                """) as? [Any] ?? []
            #expect(chart.count == 2 && (chart[0] as? [String] ?? []).contains("Events per day") && (chart[0] as? [String] ?? []).contains("Day (UTC)"), "\(chart)")
            #expect(chart.last as? Int == 1, "delivered is charted: \(chart)")
        }
    }

    /// The app's page filters its campaigns by state with radio buttons and CSS alone.
    func checkFilter(_ browser: Chromium) throws {
        func visible() throws -> [String] {
            try browser.evaluate("[...document.querySelectorAll('table.campaigns tbody tr')].filter(tr => tr.offsetParent !== null).map(tr => tr.dataset.state)")
                as? [String] ?? []
        }
        let all = try visible()
        #expect(all.count >= 3, "\(all)")
        let state = try #require(all.first)
        _ = try browser.evaluate("document.querySelector('label[for=f-\(state)]').click(); 0")
        let filtered = try visible()
        #expect(!filtered.isEmpty && filtered.allSatisfy { $0 == state } && filtered.count == all.filter { $0 == state }.count, "\(filtered)")
        _ = try browser.evaluate("document.querySelector('label[for=f-all]').click(); 0")
        #expect(try visible() == all)
    }

    static let inheritsTheAction = " Like publish, it takes its action URL from the en content and its action button from the en content."

    /// Each campaign × locale card of the open page: its own text, and where that text comes from.
    func checkCards(_ browser: Chromium, campaign: String) throws {
        let expected: [String: [String: (text: String, note: String)]] = [
            "spring-sale": [
                "de": ("https://static.example.com/demo/weather/de/banner.html", "Shows its own de content."),
                "en": ("https://static.example.com/demo/weather/en/banner.html", "Shows its own en content."),
                "pt-BR": ("https://static.example.com/demo/weather/en/banner.html", "Shows the en content: no pt-BR, pt content (fallback pt-BR → pt → en)."),
            ],
            "welcome": [
                "de": ("Danke fürs Installieren", "Shows its own de content." + Self.inheritsTheAction),
                "en": ("Thanks for installing Weather & friends", "Shows its own en content."),
                "pt-BR": ("Obrigado por instalar", "Shows its own pt-BR content." + Self.inheritsTheAction),
            ],
            "tour": [
                "de": ("Was ist neu", "Shows its own de content."),
                "en": ("See what's new", "Shows its own en content."),
                "pt-BR": ("", "Not sent to pt-BR devices: the campaign is restricted to de, en."),
            ],
        ]
        let locales = try #require(expected[campaign], "unexpected campaign page \(campaign)")
        let cards = try browser.evaluate(
            "[...document.querySelectorAll('article.card')].map(c => [c.dataset.locale, c.querySelector('.fallback').textContent, c.textContent])")
            as? [[String]] ?? []
        #expect(cards.map { $0[0] } == ["de", "en", "pt-BR"], "\(campaign): \(cards)")
        for card in cards where card.count == 3 {
            guard let want = locales[card[0]] else { continue }
            #expect(card[1] == want.note, "\(campaign) \(card[0])")
            #expect(want.text.isEmpty || card[2].contains(want.text), "\(campaign) \(card[0]) lacks \(want.text)")
            for (other, content) in locales where other != card[0] && content.text != want.text && !content.text.isEmpty {
                #expect(!card[2].contains(content.text), "\(campaign) \(card[0]) shows \(other)'s \(content.text)")
            }
        }
        if campaign == "welcome" {
            // The alert drawn as iOS draws iNotify's: title, message, buttons in iNotify's order; the copy lint on its card.
            // Translations inherit the English action, as notifications.plist carries it.
            for locale in ["en", "de", "pt-BR"] {
                let buttons = try browser.evaluate("[...document.querySelectorAll('#card-\(locale) .alert-button')].map(b => b.textContent)") as? [String]
                #expect(buttons == ["Take the tour", "Remind Me Later", "Ignore"], "\(locale)")
            }
            let copy = try browser.evaluate("[...document.querySelectorAll('#card-en [data-rule]')].map(li => li.dataset.rule)") as? [String]
            #expect(copy == ["names-app", "button-case"])
        }
    }

    /// The open page's device matrix: each row's preview options and its cells (locale, shown, reason).
    func matrixRows(_ browser: Chromium) throws -> [[String: Any]] {
        try browser.evaluate("""
            [...document.querySelectorAll('table.matrix tbody tr')].map(tr => ({
              args: JSON.parse(tr.dataset.previewArgs),
              cells: [...tr.querySelectorAll('td')].map(td => [td.dataset.locale, td.dataset.shown, td.dataset.reason])
            }))
            """) as? [[String: Any]] ?? []
    }

    /// Every cell of every matrix, against `herald preview --json` for that device, locale and moment.
    func checkMatrices(_ matrices: [String: [[String: Any]]], herald: InProcessHerald, at: String) throws {
        var cells: [(campaign: String, arguments: [String], cell: [String], command: [String])] = []
        for (campaign, rows) in matrices.sorted(by: { $0.key < $1.key }) {
            #expect(rows.count >= (campaign == "tour" ? 1 : 4), "\(campaign)")
            for row in rows {
                let arguments = row["args"] as? [String] ?? []
                for cell in row["cells"] as? [[String]] ?? [] where cell.count == 3 {
                    let command = ["preview", "--json", "--tenant", "demo", "--app", "weather", "--locale", cell[0], "--at", at] + arguments
                    cells.append((campaign, arguments, cell, command))
                }
            }
        }
        #expect(cells.count >= 30)
        // Each distinct device and locale once, on every core: the commands run in-process, each with its own console.
        let commands = Array(Set(cells.map(\.command))).sorted { $0.joined(separator: " ") < $1.joined(separator: " ") }
        let outputs = Mutex([[String]: String]())
        DispatchQueue.concurrentPerform(iterations: commands.count) { index in
            let output = (try? herald.succeed(commands[index]).stdout) ?? "failed"
            outputs.withLock { $0[commands[index]] = output }
        }
        for (campaign, arguments, cell, command) in cells {
            let output = outputs.withLock { $0[command] } ?? ""
            let preview = try #require(try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(command): \(output)")
            let shown: Bool
            switch campaign {
            case "spring-sale": shown = (preview["eligibleBanners"] as? [String] ?? []).contains(campaign)
            case "welcome": shown = preview["nextAlert"] as? String == "2026/11/01"
            default: shown = (preview["stories"] as? [String] ?? []).contains(campaign)
            }
            let reason = (preview["notShown"] as? [[String: String]] ?? []).first { $0["campaign"] == campaign }?["reason"] ?? ""
            #expect(cell[1] == (shown ? "true" : "false"), "\(campaign) \(arguments) \(cell[0]): board \(cell[1]), preview \(preview)")
            #expect(cell[2] == (shown ? "" : reason), "\(campaign) \(arguments) \(cell[0])")
        }
    }

    /// The screenshots, saved beside the test and not blank.
    func checkScreenshots(_ browser: Chromium, _ shots: [(String, Data)], root: URL) throws {
        #expect(shots.count == 4)
        let folder = root.appendingPathComponent("screenshots")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, png) in shots {
            try png.write(to: folder.appendingPathComponent(name))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(name) is not a PNG")
            let ink = try browser.inkCoverage(ofPNG: png)
            #expect(ink.inked > 0.05 && ink.colors > 20, "\(name) looks blank: \(ink)")
        }
        // HERALD_BOARD_SCREENSHOTS=DIR keeps a copy, to look at.
        if let keep = ProcessInfo.processInfo.environment["HERALD_BOARD_SCREENSHOTS"], !keep.isEmpty {
            try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
            for (name, png) in shots { try png.write(to: URL(fileURLWithPath: keep).appendingPathComponent(name)) }
        }
    }

    /// Every file under `root` but hidden ones, relative path → mtime.
    static func mtimes(_ root: URL) throws -> [String: Date] {
        var result: [String: Date] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) where !path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
            let attributes = try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            result[path] = attributes[.modificationDate] as? Date
        }
        return result
    }
}
