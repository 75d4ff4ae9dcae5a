import Foundation
import HeraldCore

/// A locale's `local-notifications.plist` and `.json`: every live local campaign as a
/// dictionary keyed exactly as UILocalNotification's properties (docs/published-files.md),
/// in campaign key order. The two files say the same; the property list's `fireDate` is a
/// `<date>`, the JSON's a string (with `Z` for an instant, without for wall-clock time).
enum LocalNotificationFile {
    /// One entry: a campaign's notification with the words a locale gets.
    struct Entry {
        let key: Slug
        let notification: LocalNotification
        let words: LocalContent
    }

    /// The entry's fields but `fireDate`, as both files hold them.
    private enum Field {
        case string(String)
        case integer(Int)
        case bool(Bool)
        case pairs([String: String])
    }

    private static func fields(_ entry: Entry) -> [String: Field] {
        let notification = entry.notification
        var fields: [String: Field] = [
            "alertBody": .string(entry.words.body),
            "hasAction": .bool(notification.hasAction),
            "userInfo": .pairs(notification.publishedUserInfo(campaign: entry.key)),
        ]
        if notification.hasAction, let action = entry.words.action { fields["alertAction"] = .string(action) }
        if let image = notification.launchImage { fields["alertLaunchImage"] = .string(image.rawValue) }
        if let badge = notification.badge { fields["applicationIconBadgeNumber"] = .integer(badge) }
        if let interval = notification.repeatInterval { fields["repeatInterval"] = .string(interval.rawValue) }
        if let sound = notification.sound { fields["soundName"] = .string(sound.rawValue) }
        if case .wallClock = notification.fireDate { fields["timeZone"] = .string(deviceTimeZone) }
        return fields
    }

    /// `timeZone`'s value for a wall-clock time: the device's own zone, wherever it is.
    static let deviceTimeZone = "device"

    static func propertyList(_ entries: [Entry]) -> [UInt8] {
        PropertyList.document(
            .array(
                entries.map { entry in
                    var members = fields(entry).mapValues { field -> PropertyList.Value in
                        switch field {
                        case .string(let text): .string(text)
                        case .integer(let number): .integer(number)
                        case .bool(let flag): .bool(flag)
                        case .pairs(let pairs): .dictionary(pairs.mapValues { .string($0) })
                        }
                    }
                    members["fireDate"] = .date(entry.notification.fireDate.utcReading)
                    return .dictionary(members)
                }))
    }

    static func json(_ entries: [Entry]) -> [UInt8] {
        JSONValue.array(
            entries.map { entry in
                var members = fields(entry).mapValues { field -> JSONValue in
                    switch field {
                    case .string(let text): .string(text)
                    case .integer(let number): .integer(number)
                    case .bool(let flag): .bool(flag)
                    case .pairs(let pairs): .object(pairs.mapValues { .string($0) })
                    }
                }
                members["fireDate"] = .string(entry.notification.fireDate.description)
                return .object(members)
            }
        ).serializedBytes()
    }
}
