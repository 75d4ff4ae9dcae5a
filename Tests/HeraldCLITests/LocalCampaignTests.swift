import Foundation
import HeraldTestSupport
import Testing

/// `--kind local` end to end on a real database: created, translated, changed, refused with
/// its message and nothing written, published as `local-notifications.plist` and `.json`,
/// exported and applied back; and a story's push sound and badge.
@Suite struct LocalCampaignTests {
    static let create = [
        "campaign", "create", "storm-check", "--app", "weather", "--kind", "local", "--name", "Storm check",
        "--body", "A storm is on its way. See when it reaches you.", "--action", "See Forecast", "--fire-at", "2030-12-24T09:00",
        "--repeat", "day", "--badge", "1", "--sound", "default", "--launch-image", "Storm.png", "--user-info", "screen=radar",
    ]

    static func plist(_ root: URL, locale: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: root.appendingPathComponent("acme/weather/\(locale)/local-notifications.plist"))
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]])
    }

    static func json(_ root: URL, locale: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: root.appendingPathComponent("acme/weather/\(locale)/local-notifications.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    @Test func aLocalCampaignIsPublishedWithUILocalNotificationsKeysInEveryLocale() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            #expect(try herald.succeed(Self.create).stdout == "created local campaign storm-check (draft)\n")
            try herald.succeed([
                "campaign", "update", "storm-check", "--app", "weather", "--locale", "de",
                "--body", "Ein Sturm zieht auf. Sieh nach, wann er dich erreicht.", "--action", "Vorhersage ansehen",
            ])
            // An instant, once, silent, without an action.
            try herald.succeed([
                "campaign", "create", "launch", "--app", "weather", "--kind", "local", "--name", "Launch",
                "--body", "The new radar is here.", "--fire-at", "2030-12-20T08:00:00Z", "--no-action",
            ])
            try herald.succeed(["campaign", "activate", "storm-check", "--app", "weather"])
            try herald.succeed(["campaign", "activate", "launch", "--app", "weather"])
            try withTemporaryDirectory { root in
                try herald.succeed(["publish", "--out", root.path, "--at", "2030-06-01T00:00:00Z"])
                let en = try Self.plist(root, locale: "en")
                #expect(en.count == 2)
                let launch = en[0]
                #expect(Set(launch.keys) == ["fireDate", "alertBody", "hasAction", "userInfo"])
                #expect(launch["fireDate"] as? Date == ISO8601DateFormatter().date(from: "2030-12-20T08:00:00Z"))
                #expect(launch["hasAction"] as? Bool == false)
                #expect(launch["userInfo"] as? [String: String] == ["key": "launch"])
                let storm = en[1]
                #expect(
                    Set(storm.keys) == [
                        "fireDate", "timeZone", "repeatInterval", "alertBody", "alertAction", "hasAction", "alertLaunchImage",
                        "applicationIconBadgeNumber", "soundName", "userInfo",
                    ])
                #expect(storm["timeZone"] as? String == "device")
                #expect(storm["fireDate"] as? Date == ISO8601DateFormatter().date(from: "2030-12-24T09:00:00Z"))
                #expect(storm["repeatInterval"] as? String == "day")
                #expect(storm["alertBody"] as? String == "A storm is on its way. See when it reaches you.")
                #expect(storm["alertAction"] as? String == "See Forecast")
                #expect(storm["applicationIconBadgeNumber"] as? Int == 1)
                #expect(storm["soundName"] as? String == "default")
                #expect(storm["alertLaunchImage"] as? String == "Storm.png")
                #expect(storm["userInfo"] as? [String: String] == ["key": "storm-check", "screen": "radar"])
                // German devices get the German words; launch falls back to English.
                let de = try Self.plist(root, locale: "de")
                #expect(de.map { $0["alertBody"] as? String } == ["The new radar is here.", "Ein Sturm zieht auf. Sieh nach, wann er dich erreicht."])
                // The JSON says the same, fireDate as text (no zone: wall clock).
                let json = try Self.json(root, locale: "en")
                #expect(json.map { $0["fireDate"] as? String } == ["2030-12-20T08:00:00Z", "2030-12-24T09:00:00"])
                #expect(json[1]["userInfo"] as? [String: String] == ["key": "storm-check", "screen": "radar"])

                // Publishing again changes no byte; withdrawn, the files stay, empty, so devices cancel.
                let before = try Data(contentsOf: root.appendingPathComponent("acme/weather/en/local-notifications.plist"))
                try herald.succeed(["publish", "--out", root.path, "--at", "2030-06-01T00:00:00Z"])
                #expect(try Data(contentsOf: root.appendingPathComponent("acme/weather/en/local-notifications.plist")) == before)
                try herald.succeed(["campaign", "archive", "storm-check", "--app", "weather"])
                try herald.succeed(["campaign", "pause", "launch", "--app", "weather"])
                try herald.succeed(["publish", "--out", root.path, "--at", "2030-06-01T00:00:00Z"])
                #expect(try Self.plist(root, locale: "en").isEmpty)
                #expect(try Self.json(root, locale: "de").isEmpty)
            }
        }
    }

    @Test func badInputIsRefusedWithItsMessageAndNothingWritten() throws {
        try InProcessHerald.withAcmeWeather { herald, database in
            try herald.succeed(Self.create)
            let before = try HeraldFixtures.fingerprint(database)
            let cases: [(arguments: [String], status: Int32, message: String)] = [
                (["--body", "No time."], 65, "a local notification needs a fire time"),
                (["--body", "", "--fire-at", "2030-12-24T09:00"], 65, "body"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--badge=-1"], 65, "badge -1 is not a badge"),
                // Written apart, a negative value is still the option's value (not a flag of its own).
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--badge", "-1"], 65, "badge -1 is not a badge"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--badge", "100000"], 65, "badge 100000 is not a badge"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--repeat", "second"], 65, "shorter than iOS allows"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--sound", "../sounds/a.caf"], 65, "is not a plain file name"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--sound", "chime.mp3"], 65, "not a file iOS plays"),
                (["--body", "x.", "--fire-at", "2030-12-24"], 65, "a day without a time of day"),
                (["--body", "x.", "--fire-at", "tomorrow"], 65, "is not a time"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--user-info", "key=other"], 65, "userInfo key \"key\" is Herald's"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--action", "Go", "--no-action"], 65, "contradict each other"),
                (["--body", "x.", "--fire-at", "2030-12-24T09:00", "--push-sound", "default"], 65, "--push-sound is for story campaigns"),
            ]
            for (index, given) in cases.enumerated() {
                let result = try herald.run(
                    ["campaign", "create", "bad-\(index)", "--app", "weather", "--kind", "local", "--name", "Bad"] + given.arguments)
                #expect(result.status == given.status, "\(given.arguments): \(result)")
                #expect(result.stderr.contains(given.message), "\(given.arguments): \(result)")
            }
            // A story takes no local flags; an update that breaks a rule changes nothing either.
            let story = try herald.run([
                "campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour", "--push-text", "New",
                "--page", "image=https://cdn.example.com/1.jpg", "--fire-at", "2030-12-24T09:00",
            ])
            #expect(story.status == 65 && story.stderr.contains("--fire-at is for local campaigns, not story"), "\(story)")
            let update = try herald.run(["campaign", "update", "storm-check", "--app", "weather", "--badge=-5"])
            #expect(update.status == 65 && update.stderr.contains("badge -5"), "\(update)")
            #expect(try HeraldFixtures.fingerprint(database) == before)
            // Activating a one-off whose time has passed everywhere is refused.
            try herald.succeed(["campaign", "create", "old", "--app", "weather", "--kind", "local", "--name", "Old", "--body", "Old.", "--fire-at", "2020-01-01T09:00"])
            let old = try herald.run(["campaign", "activate", "old", "--app", "weather"])
            #expect(old.status == 65 && old.stderr.contains("which has passed on every device"), "\(old)")
        }
    }

    @Test func updateSaysWhatChangedAndExportApplyRoundTrips() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            try herald.succeed(Self.create)
            let changed = try herald.succeed([
                "campaign", "update", "storm-check", "--app", "weather", "--fire-at", "2030-12-24T08:00:00Z", "--clear", "repeat",
                "--user-info", "tab=alerts", "--remove-user-info", "screen", "--no-action",
            ])
            #expect(
                changed.stdout == """
                    updated storm-check: 6 change(s)
                      fireAt: "2030-12-24T09:00:00" → "2030-12-24T08:00:00Z"
                      repeat: "day" → (none)
                      hasAction: true → false
                      userInfo.screen: "radar" → (none)
                      userInfo.tab: (none) → "alerts"
                      [en] action: "See Forecast" → (none)

                    """)
            let text = try herald.succeed(["campaign", "show", "storm-check", "--app", "weather"]).stdout
            for line in [
                "fires        2030-12-24T08:00:00Z, one instant everywhere", "repeat       never", "badge        1", "sound        default",
                "launch image Storm.png", "action       none (--no-action)", "userInfo     key=storm-check, tab=alerts",
                "    body: A storm is on its way. See when it reaches you.",
            ] {
                #expect(text.contains(line), "\(line)\n\(text)")
            }
            let shown = try herald.succeed(["campaign", "show", "storm-check", "--app", "weather", "--json"]).stdout
            let campaign = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
            let notification = try #require(campaign["notification"] as? [String: Any])
            #expect(notification["fireAt"] as? String == "2030-12-24T08:00:00Z" && notification["fireAtKind"] as? String == "instant")
            #expect(notification["userInfo"] as? [String: String] == ["tab": "alerts"])

            let exported = try herald.succeed(["export", "--app", "weather"]).stdout
            #expect(exported.contains("fireAt: 2030-12-24T08:00:00Z") && exported.contains("hasAction: false"), "\(exported)")
            // Applied back: nothing to change; the exported file validates without a database.
            try withTemporaryDirectory { directory in
                let file = directory.appendingPathComponent("campaigns.yaml")
                try Data(exported.utf8).write(to: file)
                #expect(try InProcessHerald(database: nil).run(["validate", "-f", file.path]).status == 0)
                let applied = try herald.succeed(["apply", "-f", file.path])
                #expect(applied.stdout.contains("no changes") || applied.stdout.contains("nothing to change"), "\(applied)")
            }
            #expect(try herald.succeed(["export", "--app", "weather"]).stdout == exported)
        }
    }

    @Test func aStorysPushCarriesItsSoundAndBadge() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            try herald.succeed([
                "campaign", "create", "tour", "--app", "weather", "--kind", "story", "--name", "Tour", "--push-text", "See what's new",
                "--page", "image=https://cdn.example.com/1.jpg", "--push-sound", "Chime.caf", "--push-badge", "+1",
            ])
            let bad = try herald.run(["campaign", "update", "tour", "--app", "weather", "--push-badge", "+0"])
            #expect(bad.status == 65 && bad.stderr.contains("changes nothing"), "\(bad)")
            // `-1`, as --help writes it, is the value after --push-badge, not a flag.
            try herald.succeed(["campaign", "update", "tour", "--app", "weather", "--push-badge", "-1"])
            #expect(try herald.succeed(["campaign", "show", "tour", "--app", "weather"]).stdout.contains("push badge   -1"))
            try herald.succeed(["campaign", "update", "tour", "--app", "weather", "--push-badge", "+1"])
            try herald.succeed(["campaign", "activate", "tour", "--app", "weather"])
            try withTemporaryDirectory { root in
                try herald.succeed(["publish", "--out", root.path])
                let stories = root.appendingPathComponent("acme/weather/en/stories")
                let request = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: stories.appendingPathComponent("tour.push.json"))) as? [String: Any])
                #expect(request["ios_sound"] as? String == "Chime.caf")
                #expect(request["ios_badges"] as? String == "+1")
                // A change of the badge is Pushwoosh's alone: the payload has only the sound.
                let payload = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: stories.appendingPathComponent("tour.json"))) as? [String: Any])
                #expect(payload["aps"] as? [String: String] == ["sound": "Chime.caf"])

                try herald.succeed(["campaign", "update", "tour", "--app", "weather", "--push-badge", "3", "--clear", "push-sound"])
                try herald.succeed(["publish", "--out", root.path])
                let after = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: stories.appendingPathComponent("tour.push.json"))) as? [String: Any])
                #expect(after["ios_badges"] as? Int == 3 && after["ios_sound"] == nil)
                let payloadAfter = try #require(
                    try JSONSerialization.jsonObject(with: Data(contentsOf: stories.appendingPathComponent("tour.json"))) as? [String: Any])
                #expect((payloadAfter["aps"] as? [String: Any])?["badge"] as? Int == 3)
                // No local campaign: no local-notifications files.
                #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("acme/weather/en/local-notifications.plist").path))
            }
        }
    }

    @Test func previewSaysWhatADeviceWouldScheduleReplaceAndCancelOnItsClock() throws {
        try InProcessHerald.withAcmeWeather { herald, _ in
            try herald.succeed(Self.create)
            try herald.succeed([
                "campaign", "create", "launch", "--app", "weather", "--kind", "local", "--name", "Launch",
                "--body", "The new radar is here.", "--fire-at", "2030-12-20T08:00:00Z",
            ])
            try herald.succeed(["campaign", "activate", "storm-check", "--app", "weather"])
            try herald.succeed(["campaign", "activate", "launch", "--app", "weather"])
            let device = ["preview", "--app", "weather", "--locale", "de", "--app-version", "2.0", "--os-version", "17.4", "--at", "2030-12-01T00:00:00Z"]
            // In Berlin (CET, +01:00), with storm-check and a withdrawn campaign pending.
            let text = try herald.succeed(device + ["--time-zone", "Europe/Berlin", "--pending", "storm-check", "--pending", "old-sale"]).stdout
            #expect(
                text.contains(
                    """
                    local notifications (device in Europe/Berlin)
                      schedule launch, fires 2030-12-20T09:00:00+01:00
                      replace  storm-check, fires 2030-12-24T09:00:00+01:00, then every day
                      cancel   old-sale (no longer published)
                    """), "\(text)")
            // In New York the wall-clock time stays 09:00; the instant is 03:00 there.
            let json = try herald.succeed(device + ["--time-zone", "America/New_York", "--json"]).stdout
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let local = try #require(parsed["localNotifications"] as? [String: Any])
            let schedule = try #require(local["schedule"] as? [[String: Any]])
            #expect(schedule.map { $0["campaign"] as? String } == ["launch", "storm-check"])
            #expect(schedule.map { $0["nextFire"] as? String } == ["2030-12-20T03:00:00-05:00", "2030-12-24T09:00:00-05:00"])
            // With 63 of the app's own pending, only the soonest fits.
            let full = try herald.succeed(device + ["--own-pending", "63"]).stdout
            #expect(full.contains("leave out storm-check"), "\(full)")
            #expect(full.contains("storm-check") && full.contains("iOS keeps 64 pending local notifications per app"), "\(full)")

            let zone = try herald.run(device + ["--time-zone", "Mars/Olympus"])
            #expect(zone.status == 64 && zone.stderr.contains("--time-zone \"Mars/Olympus\" is not a time zone"), "\(zone)")
            let own = try herald.run(device + ["--own-pending", "65"])
            #expect(own.status == 64 && own.stderr.contains("--own-pending 65"), "\(own)")
        }
    }

    static let badFile = """
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
              fireAt: 2030-12-24T09:00
              repeat: second
              badge: -2
              sound: ../Chime.caf
              hasAction: false
              userInfo: {key: mine}
              content:
                en: {body: Rain soon., action: Look}
            - key: no-time
              kind: local
              name: No time
              content:
                en: {body: Rain soon.}
            - key: tour
              kind: story
              name: Tour
              pushBadge: "+0"
              fireAt: 2030-12-24T09:00
              content:
                en: {pushText: New, pages: [{image: "https://cdn.example.com/1.jpg"}]}

        """

    @Test func aCampaignsFileWithBadLocalFieldsIsRefusedWithPathsAndWritesNothing() throws {
        try InProcessHerald.withAcmeWeather { herald, database in
            try withTemporaryDirectory { directory in
                let file = directory.appendingPathComponent("campaigns.yaml")
                try Data(Self.badFile.utf8).write(to: file)
                let validated = try InProcessHerald(database: nil).run(["validate", "-f", file.path])
                #expect(validated.status == 65, "\(validated)")
                for expected in [
                    "campaigns[0].repeat: repeat \"second\" is shorter than iOS allows",
                    "campaigns[0].badge: badge -2 is not a badge",
                    "campaigns[0].sound: sound \"../Chime.caf\" is not a plain file name",
                    "campaigns[0].userInfo.key",
                    "action \"Look\" is given, but the notification has no action",
                    "a local notification needs a fire time",
                    "campaigns[2].pushBadge: push badge \"+0\" changes nothing",
                    "campaigns[2].fireAt: fireAt is for local campaigns, not story",
                ] {
                    #expect(validated.stderr.contains(expected), "\(expected)\n\(validated.stderr)")
                }
                let before = try HeraldFixtures.fingerprint(database)
                let applied = try herald.run(["apply", "-f", file.path])
                #expect(applied.status == 65, "\(applied)")
                #expect(try HeraldFixtures.fingerprint(database) == before)
            }
        }
    }
}
