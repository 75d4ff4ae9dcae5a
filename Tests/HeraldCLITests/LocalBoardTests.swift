import Foundation
import HeraldTestSupport
import Testing

/// The board in a real headless Chromium for seed 004's local notifications (the lock screen
/// as iOS shows one, per locale, with the next fire times and seed 004's copy lint) and seed
/// 003's top bar (a Notable banner with origin=top, drawn over the status bar).
@Suite struct LocalBoardTests {
    static let yaml = """
        version: 1
        tenants:
        - slug: acme
          name: Acme
          apps:
          - slug: weather
            name: Weather
            platform: ios
            bundleId: com.acme.weather
            defaultLocale: en
            locales: [de, en]
            campaigns:
            - key: storm-check
              kind: local
              name: Storm check
              status: active
              fireAt: 2030-12-24T09:00
              repeat: day
              badge: 2
              sound: default
              content:
                en: {body: A storm is on its way. See when it reaches you., action: See Forecast}
                de: {body: Ein Sturm zieht auf., action: Vorhersage ansehen}
            - key: storm-again
              kind: local
              name: Storm again
              status: active
              fireAt: 2030-12-24T09:00:30
              hasAction: false
              content:
                en: {body: a storm is on its way. see when it reaches you}
            - key: top-bar
              kind: banner
              name: Top bar
              status: active
              content:
                en:
                  entry: bar
                  views:
                  - {id: bar, html: '<p onclick="">Tap to close</p>', height: 64, origin: top}

        """

    @Test func localNotificationsAndTheTopBarAsDevicesDrawThem() throws {
        try HeraldFixtures.withMigratedDatabase { database in
            try withTemporaryDirectory { root in
                let herald = InProcessHerald(database: database)
                let browser = try Chromium(scratch: root)
                defer { browser.close() }
                let file = root.appendingPathComponent("campaigns.yaml")
                try Data(Self.yaml.utf8).write(to: file)
                try herald.succeed(["apply", "-f", file.path])
                let review = root.appendingPathComponent("review")
                try herald.succeed(["board", "--out", review.path, "--at", "2030-12-01T00:00:00Z"])

                _ = try browser.open(review.appendingPathComponent("board/acme/weather/storm-check.html"), width: 1280, height: 900)
                let cards = try browser.evaluate(
                    """
                    [...document.querySelectorAll('article.card')].map(c => [c.dataset.locale,
                      c.querySelector('.local-note .push-text')?.textContent, c.querySelector('.slide')?.textContent,
                      c.querySelector('.icon-badge')?.textContent, c.querySelector('.sound-mark')?.textContent,
                      [...c.querySelectorAll('.fire-times li')].map(l => l.textContent).join(' | ')])
                    """) as? [[String]] ?? []
                #expect(cards.count == 2, "\(cards)")
                #expect(cards.first?.prefix(5) == ["de", "Ein Sturm zieht auf.", "slide to vorhersage ansehen", "2", "♪ default"], "\(cards)")
                #expect(cards.last?.prefix(5) == ["en", "A storm is on its way. See when it reaches you.", "slide to see forecast", "2", "♪ default"], "\(cards)")
                // Wall-clock time: 09:00 on every clock, each zone's offset.
                let times = cards.last?.last ?? ""
                #expect(times.contains("Europe/Berlin: 2030-12-24T09:00:00+01:00, 2030-12-25T09:00:00+01:00, 2030-12-26T09:00:00+01:00"), "\(times)")
                #expect(times.contains("America/New_York: 2030-12-24T09:00:00-05:00"), "\(times)")
                // Who sees what: every locale's devices schedule it, and when it fires next (the board's devices are in UTC).
                let matrix = try browser.evaluate(
                    "[...document.querySelectorAll('table.matrix td')].map(td => td.dataset.shown + ' ' + td.textContent)") as? [String] ?? []
                #expect(!matrix.isEmpty && matrix.allSatisfy { $0.hasPrefix("true ✓ scheduled") && $0.contains("fires next 2030-12-24T09:00:00+00:00") }, "\(matrix)")
                // One notification per event: the two fire within a minute with the same body.
                let rules = try browser.evaluate("[...document.querySelectorAll('[data-rule]')].map(l => l.dataset.rule)") as? [String] ?? []
                #expect(rules.contains("one-per-event"), "\(rules)")

                _ = try browser.open(review.appendingPathComponent("board/acme/weather/storm-again.html"), width: 1280, height: 900)
                let again = try browser.evaluate(
                    """
                    [document.querySelector('article.card[data-locale=en] .slide') === null,
                     document.querySelector('article.card[data-locale=en] .sound-mark').textContent,
                     [...document.querySelectorAll('article.card[data-locale=en] [data-rule]')].map(l => l.dataset.rule).sort().join(',')]
                    """) as? [Any] ?? []
                #expect(again.first as? Bool == true, "no action, no slide to: \(again)")
                #expect(again.dropFirst().first as? String == "silent", "\(again)")
                #expect(again.last as? String == "one-per-event,sentence-case", "\(again)")

                // Seed 003's bar: at the very top of the device, over the status bar.
                _ = try browser.open(review.appendingPathComponent("board/acme/weather/top-bar.html"), width: 1280, height: 900)
                let placement = try browser.evaluate(
                    """
                    (() => { const card = document.querySelector('article.card[data-locale=en]');
                      const screen = card.querySelector('.screen').getBoundingClientRect();
                      const bar = card.querySelector('.view.top').getBoundingClientRect();
                      const status = card.querySelector('.statusbar').getBoundingClientRect();
                      return [Math.round(bar.top - screen.top), bar.bottom > status.bottom, Math.round(bar.height)]; })()
                    """) as? [Any] ?? []
                #expect(placement.first as? Int == 0, "the bar starts at the top of the screen: \(placement)")
                #expect(placement.dropFirst().first as? Bool == true, "the bar covers the status bar: \(placement)")
                #expect(placement.last as? Int == 45, "64 pt at the board's 70 %: \(placement)")
            }
        }
    }
}
