import Foundation
import HeraldCore
import HeraldLocalNotifications
import Testing

@testable import HeraldPublish

/// clients/HeraldLocalNotifications.swift against an in-memory notification center, on files
/// Herald's compiler wrote (the property list, and the JSON that says the same).
@Suite struct LocalNotificationSyncTests {
    static let berlin = zone("Europe/Berlin")
    static let newYork = zone("America/New_York")

    /// A file of `entries` (key, fire time as `--fire-at` takes it, repeat), as publish writes it.
    static func file(_ entries: [(key: String, fireAt: String, repeat: RepeatInterval?)], json: Bool = false, body: String = "Rain soon.")
        throws -> Data
    {
        let compiled = try entries.map { entry in
            LocalNotificationFile.Entry(
                key: try Slug(entry.key),
                notification: LocalNotification(fireDate: try FireDate(entry.fireAt), repeatInterval: entry.repeat, sound: try SoundName("default")),
                words: LocalContent(body: body, action: "See"))
        }
        return Data(json ? LocalNotificationFile.json(compiled) : LocalNotificationFile.propertyList(compiled))
    }

    /// When `identifier` fires next after `date` on a device in `zone`, as its trigger says.
    static func nextFire(_ center: InMemoryCenter, _ identifier: String, after date: Date, in zone: TimeZone) async -> Date? {
        await center.requests[identifier]?.trigger.nextTriggerDate(after: date, deviceTimeZone: zone)
    }

    @Test func aFlightFromBerlinToNewYorkKeepsWallClockTimeAndTheInstant() async throws {
        let file = try Self.file([("breakfast", "2027-01-01T09:00", .day), ("launch", "2027-01-20T08:00:00Z", nil)])
        let center = InMemoryCenter()
        let now = instant("2027-01-05T12:00:00Z")
        let first = try await HeraldLocalNotificationSync.sync(file: file, center: center, now: now, timeZone: Self.berlin)
        #expect(first.scheduled == ["breakfast", "launch"])

        // In Berlin: 09:00 CET is 08:00 UTC.
        #expect(await Self.nextFire(center, "herald.breakfast", after: now, in: Self.berlin) == instant("2027-01-06T08:00:00Z"))
        // The device lands in New York: the same pending requests, read on its new clock.
        let landed = instant("2027-01-12T20:00:00Z")
        #expect(await Self.nextFire(center, "herald.breakfast", after: landed, in: Self.newYork) == instant("2027-01-13T14:00:00Z"))
        #expect(await Self.nextFire(center, "herald.launch", after: landed, in: Self.newYork) == instant("2027-01-20T08:00:00Z"))
        // And a sync in the new zone finds nothing to change: the requests do not depend on it.
        await center.resetCounts()
        let again = try await HeraldLocalNotificationSync.sync(file: file, center: center, now: landed, timeZone: Self.newYork)
        #expect(again.kept == ["breakfast", "launch"] && again.scheduled.isEmpty && again.replaced.isEmpty && again.cancelled.isEmpty)
        #expect(await center.counts == (0, 0))
    }

    @Test func daylightSavingChangesKeepTheClockTime() async throws {
        // 09:00 daily in Berlin across the spring change (2027-03-28): 08:00 UTC, then 07:00 UTC.
        let entry = HeraldLocalNotification(
            key: "daily", fireDate: instant("2027-03-01T09:00:00Z"), wallClock: true, repeatInterval: .day, alertBody: "Rain soon.")
        guard let (request, _) = HeraldLocalNotificationSync.request(for: entry, now: instant("2027-03-26T12:00:00Z"), timeZone: Self.berlin)
        else {
            Issue.record("a daily notification fires again")
            return
        }
        let trigger = request.trigger
        #expect(trigger.nextTriggerDate(after: instant("2027-03-27T00:00:00Z"), deviceTimeZone: Self.berlin) == instant("2027-03-27T08:00:00Z"))
        #expect(trigger.nextTriggerDate(after: instant("2027-03-28T00:00:00Z"), deviceTimeZone: Self.berlin) == instant("2027-03-28T07:00:00Z"))

        // A time the spring change skips (02:30 on 2027-03-28 does not exist in Berlin) fires an hour on, at 03:30 CEST.
        let skipped = HeraldLocalNotification(key: "skipped", fireDate: instant("2027-03-28T02:30:00Z"), wallClock: true, alertBody: "x")
        #expect(
            HeraldLocalNotificationSync.request(for: skipped, now: instant("2027-03-20T00:00:00Z"), timeZone: Self.berlin)?.1
                == instant("2027-03-28T01:30:00Z"))
        // A time the autumn change repeats (02:30 on 2027-10-31 happens twice) fires once, at the first.
        let twice = HeraldLocalNotification(key: "twice", fireDate: instant("2027-10-31T02:30:00Z"), wallClock: true, alertBody: "x")
        #expect(
            HeraldLocalNotificationSync.request(for: twice, now: instant("2027-10-20T00:00:00Z"), timeZone: Self.berlin)?.1
                == instant("2027-10-31T00:30:00Z"))
        // An instant ignores the change: 08:00 UTC is 10:00 CEST after it.
        let absolute = HeraldLocalNotification(key: "absolute", fireDate: instant("2027-03-29T08:00:00Z"), wallClock: false, alertBody: "x")
        #expect(
            HeraldLocalNotificationSync.request(for: absolute, now: instant("2027-03-20T00:00:00Z"), timeZone: Self.berlin)?.1
                == instant("2027-03-29T08:00:00Z"))
    }

    @Test func keepsWithinSixtyFourSoonestFirstCountingTheAppsOwn() async throws {
        // 70 one-off entries an hour apart, and one that repeats every minute (counted once).
        var entries: [(key: String, fireAt: String, repeat: RepeatInterval?)] = (0..<70).map { index in
            (String(format: "n%02d", index), "2027-02-0\(1 + index / 24)T\(String(format: "%02d", index % 24)):30:00Z", nil)
        }
        entries.append(("every-minute", "2027-01-31T23:00:00Z", .minute))
        let center = InMemoryCenter([ownRequest("app.morning"), ownRequest("app.evening")])
        let report = try await HeraldLocalNotificationSync.sync(
            file: try Self.file(entries), center: center, now: instant("2027-01-15T00:00:00Z"), timeZone: Self.berlin)

        let pending = await center.pendingRequests()
        #expect(pending.count == HeraldLocalNotificationSync.pendingLimit)
        #expect(pending.filter(\.isHerald).count == 62)
        #expect(report.scheduled.count == 62 && report.scheduled.contains("every-minute"))
        // The nine that fire last are left out, soonest of them first.
        #expect(report.leftOut == (61..<70).map { String(format: "n%02d", $0) })
        #expect(await center.identifiers.filter { $0.hasPrefix("app.") } == ["app.evening", "app.morning"])
    }

    @Test func aWithdrawnCampaignIsCancelledAndTheAppsOwnAreNeverTouched() async throws {
        // One of the app's own carries a `key` too, but not Herald's identifier: it is not Herald's.
        let own = [ownRequest("app.morning"), ownRequest("promo-7", userInfo: ["key": "promo"])]
        let center = InMemoryCenter(own)
        let now = instant("2027-01-05T12:00:00Z")
        _ = try await HeraldLocalNotificationSync.sync(
            file: try Self.file([("storm", "2027-01-10T09:00", nil), ("sale", "2027-01-11T09:00", nil)]), center: center, now: now,
            timeZone: Self.berlin)
        #expect(await center.identifiers == ["app.morning", "herald.sale", "herald.storm", "promo-7"])

        let report = try await HeraldLocalNotificationSync.sync(
            file: try Self.file([("storm", "2027-01-10T09:00", nil)]), center: center, now: now, timeZone: Self.berlin)
        #expect(report.cancelled == ["sale"])
        #expect(report.kept == ["storm"])
        #expect(await center.identifiers == ["app.morning", "herald.storm", "promo-7"])
        #expect(await center.requests["promo-7"] == own[1])

        // An empty file (every local campaign withdrawn) cancels Herald's, and only Herald's.
        _ = try await HeraldLocalNotificationSync.sync(file: try Self.file([]), center: center, now: now, timeZone: Self.berlin)
        #expect(await center.identifiers == ["app.morning", "promo-7"])
    }

    @Test func anUnchangedFileChangesNothingAndAChangedEntryIsReplaced() async throws {
        let center = InMemoryCenter([ownRequest("app.morning")])
        let now = instant("2027-01-05T12:00:00Z")
        let entries: [(key: String, fireAt: String, repeat: RepeatInterval?)] = [
            ("storm", "2027-01-10T09:00", .week), ("sale", "2027-01-11T09:00:00Z", nil),
        ]
        _ = try await HeraldLocalNotificationSync.sync(file: try Self.file(entries), center: center, now: now, timeZone: Self.berlin)
        let before = await center.pendingRequests()
        await center.resetCounts()

        // The same content as JSON, an hour later: nothing asked of the center.
        let later = now.addingTimeInterval(3_600)
        let report = try await HeraldLocalNotificationSync.sync(
            file: try Self.file(entries, json: true), center: center, now: later, timeZone: Self.berlin)
        #expect(report.kept == ["storm", "sale"] && report.scheduled.isEmpty && report.replaced.isEmpty && report.cancelled.isEmpty)
        #expect(await center.counts == (0, 0))
        #expect(await center.pendingRequests() == before)

        // New words: both replaced, the app's own left alone.
        let changed = try await HeraldLocalNotificationSync.sync(
            file: try Self.file(entries, body: "Snow tonight."), center: center, now: later, timeZone: Self.berlin)
        #expect(changed.replaced.sorted() == ["sale", "storm"])
        #expect(await center.requests["herald.storm"]?.body == "Snow tonight.")
        #expect(await center.requests["app.morning"] == ownRequest("app.morning"))
    }

    @Test func aFileThatDoesNotReadChangesNothing() async throws {
        let center = InMemoryCenter()
        _ = try await HeraldLocalNotificationSync.sync(
            file: try Self.file([("storm", "2027-01-10T09:00", nil)]), center: center, now: instant("2027-01-05T12:00:00Z"), timeZone: Self.berlin)
        await center.resetCounts()
        await #expect(throws: HeraldLocalNotificationsFile.ReadError.self) {
            _ = try await HeraldLocalNotificationSync.sync(
                file: Data("<html>502 Bad Gateway</html>".utf8), center: center, now: instant("2027-01-05T12:00:00Z"), timeZone: Self.berlin)
        }
        #expect(await center.identifiers == ["herald.storm"])
        #expect(await center.counts == (0, 0))
    }

    @Test func aPastOneOffIsSkippedAndTheFileReadsEveryField() async throws {
        let entry = LocalNotificationFile.Entry(
            key: try Slug("full"),
            notification: LocalNotification(
                fireDate: try FireDate("2027-01-10T09:00"), repeatInterval: nil, badge: 3, sound: try SoundName("Chime.caf"),
                launchImage: try BundleFileName("Launch.png"), hasAction: true, userInfo: ["screen": "radar"]),
            words: LocalContent(body: "Rain soon.", action: "See Radar"))
        let past = LocalNotificationFile.Entry(
            key: try Slug("past"), notification: LocalNotification(fireDate: try FireDate("2026-01-01T09:00:00Z")),
            words: LocalContent(body: "Old."))
        for bytes in [LocalNotificationFile.propertyList([entry, past]), LocalNotificationFile.json([entry, past])] {
            let contents = try HeraldLocalNotificationsFile.read(Data(bytes))
            #expect(contents.problems.isEmpty)
            #expect(
                contents.entries.first
                    == HeraldLocalNotification(
                        key: "full", fireDate: instant("2027-01-10T09:00:00Z"), wallClock: true, alertBody: "Rain soon.", alertAction: "See Radar",
                        alertLaunchImage: "Launch.png", applicationIconBadgeNumber: 3, sound: .named("Chime.caf"), userInfo: ["screen": "radar"]))
            let plan = HeraldLocalNotificationSync.plan(contents.entries, pending: [], now: instant("2027-01-05T00:00:00Z"), timeZone: Self.berlin)
            #expect(plan.past == ["past"])
            #expect(plan.schedule.map(\.key) == ["full"])
            #expect(plan.schedule.first?.request.userInfo["key"] == "full" && plan.schedule.first?.request.userInfo["screen"] == "radar")
        }
    }

    /// An entry the client cannot read (a time zone it does not know, no key) is reported and
    /// left alone; the rest of the file is carried out.
    @Test func anEntryThatDoesNotReadIsReportedAndTheRestSynced() async throws {
        let json = """
            [
              {"alertBody": "Rain soon.", "fireDate": "2027-01-10T09:00:00", "hasAction": true, "timeZone": "Europe/Berlin", "userInfo": {"key": "zoned"}},
              {"alertBody": "No key.", "fireDate": "2027-01-10T09:00:00Z", "hasAction": true, "userInfo": {}},
              {"alertBody": "Fine.", "fireDate": "2027-01-10T09:00:00Z", "hasAction": true, "userInfo": {"key": "fine"}},
              {"alertBody": "Twice.", "fireDate": "2027-01-11T09:00:00Z", "hasAction": true, "userInfo": {"key": "fine"}}
            ]
            """
        let center = InMemoryCenter()
        let report = try await HeraldLocalNotificationSync.sync(
            file: Data(json.utf8), center: center, now: instant("2027-01-05T12:00:00Z"), timeZone: Self.berlin)
        #expect(report.scheduled == ["fine"])
        #expect(
            report.problems == [
                "entry 0: timeZone is neither absent nor \"device\"", "entry 1: no userInfo key", "entry 3: key fine is listed twice; the first is kept",
            ])
        #expect(await center.requests["herald.fine"]?.body == "Fine.")
    }
}
