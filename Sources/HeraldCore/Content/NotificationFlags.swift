import Foundation

/// The campaign-wide flags of `campaign create` and `campaign update` that are not words: a
/// local campaign's notification (`--fire-at`, `--repeat`, `--badge`, `--sound`,
/// `--launch-image`, `--no-action`, `--user-info`) and a story's push (`--push-sound`,
/// `--push-badge`). They hold for every locale, whichever `--locale` the words are for.
public struct NotificationFlags: Sendable {
    public var fireAt: String?
    public var repeatInterval: String?
    public var badge: String?
    public var sound: String?
    public var launchImage: String?
    public var noAction = false
    /// `name=value` pairs to set.
    public var userInfo: [String] = []
    /// Names of pairs to remove.
    public var removeUserInfo: [String] = []
    public var pushSound: String?
    public var pushBadge: String?

    public init() {}

    /// Fields that can be removed (`--clear`).
    public enum Clearable: Sendable {
        case repeatInterval, badge, sound, launchImage, userInfo, pushSound, pushBadge
    }

    public var isEmpty: Bool {
        fireAt == nil && repeatInterval == nil && badge == nil && sound == nil && launchImage == nil && !noAction
            && userInfo.isEmpty && removeUserInfo.isEmpty && pushSound == nil && pushBadge == nil
    }

    /// The flags given that belong to another kind of campaign than `kind`, by flag name.
    public func flags(notFor kind: CampaignKind) -> [(flag: String, kind: CampaignKind)] {
        let given: [(CampaignKind, String, Bool)] = [
            (.local, "--fire-at", fireAt != nil), (.local, "--repeat", repeatInterval != nil), (.local, "--badge", badge != nil),
            (.local, "--sound", sound != nil), (.local, "--launch-image", launchImage != nil), (.local, "--no-action", noAction),
            (.local, "--user-info", !userInfo.isEmpty), (.local, "--remove-user-info", !removeUserInfo.isEmpty),
            (.story, "--push-sound", pushSound != nil), (.story, "--push-badge", pushBadge != nil),
        ]
        return given.filter { $0.2 && $0.0 != kind }.map { ($0.1, $0.0) }
    }

    /// Applies the flags to `spec`. `givesAction`: `--action` is given for a locale, which gives
    /// the notification an action (`--no-action` takes it away, in every locale).
    public func apply(to spec: inout CampaignSpec, clearing: Set<Clearable> = [], givesAction: Bool = false) throws(ValidationErrors) {
        let wrong = flags(notFor: spec.kind)
        guard wrong.isEmpty else {
            throw ValidationErrors(wrong.map { ValidationError(message: "\($0.flag) is for \($0.kind) campaigns, not \(spec.kind)") })
        }
        do throws(ValidationError) {
            switch spec.kind {
            case .story:
                if clearing.contains(.pushSound) { spec.push.sound = nil }
                if clearing.contains(.pushBadge) { spec.push.badge = nil }
                if let pushSound { spec.push.sound = try SoundName(pushSound) }
                if let pushBadge { spec.push.badge = try PushBadge(pushBadge) }
            case .local:
                try applyLocal(to: &spec, clearing: clearing, givesAction: givesAction)
            case .banner, .alert:
                break
            }
        } catch {
            throw ValidationErrors([error])
        }
    }

    private func applyLocal(to spec: inout CampaignSpec, clearing: Set<Clearable>, givesAction: Bool) throws(ValidationError) {
        if givesAction, noAction {
            throw ValidationError(message: "--action and --no-action contradict each other: give one")
        }
        var notification = spec.localNotification
        if let fireAt {
            let date = try FireDate(fireAt)
            if notification == nil { notification = LocalNotification(fireDate: date) }
            notification?.fireDate = date
        }
        guard var notification else {
            let others = fireAt == nil && (!isEmpty || givesAction || !clearing.isEmpty)
            if others {
                throw ValidationError(message: "a local notification needs a fire time first: give --fire-at, e.g. 2026-12-24T09:00")
            }
            return
        }
        if clearing.contains(.repeatInterval) { notification.repeatInterval = nil }
        if clearing.contains(.badge) { notification.badge = nil }
        if clearing.contains(.sound) { notification.sound = nil }
        if clearing.contains(.launchImage) { notification.launchImage = nil }
        if clearing.contains(.userInfo) { notification.userInfo = [:] }
        if let repeatInterval { notification.repeatInterval = try RepeatInterval(repeatInterval) }
        if let badge {
            guard let number = Int(badge.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError(
                    message: "badge \(quote(badge)) is not a whole number: give 0 to \(LocalNotification.maximumBadge) (0 removes the badge)")
            }
            try LocalNotification.checkBadge(number)
            notification.badge = number
        }
        if let sound { notification.sound = try SoundName(sound) }
        if let launchImage { notification.launchImage = try BundleFileName(launchImage) }
        if givesAction { notification.hasAction = true }
        if noAction {
            notification.hasAction = false
            // No action in any locale: the words of one go with it.
            for (locale, content) in spec.content {
                if case .local(var words) = content, words.action != nil {
                    words.action = nil
                    spec.content[locale] = .local(words)
                }
            }
        }
        for name in removeUserInfo {
            guard notification.userInfo.removeValue(forKey: name) != nil else {
                let have = notification.userInfo.keys.sorted().joined(separator: ", ")
                throw ValidationError(message: "there is no userInfo pair \(quote(name)) to remove (pairs: \(have.isEmpty ? "none" : have))")
            }
        }
        var given: Set<String> = []
        for text in userInfo {
            let (name, value) = try LocalNotification.userInfoPair(text)
            guard given.insert(name).inserted else {
                throw ValidationError(message: "--user-info \(name)=… is given twice: give each pair once")
            }
            notification.userInfo[name] = value
        }
        spec.localNotification = notification
    }
}
