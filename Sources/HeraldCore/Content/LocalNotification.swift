/// What a local campaign's notification is in every locale (seed 004's `UILocalNotification`
/// but for its words): when it fires and repeats, its badge and sound, the launch image, whether
/// it has an action, and the app's own `userInfo` pairs. Its words (`alertBody`,
/// `alertAction`) are per locale: `LocalContent`. The campaign key is its identity on devices
/// (the `userInfo` key the app cancels by), so it never changes and is never reused in the app.
public struct LocalNotification: Hashable, Sendable {
    public var fireDate: FireDate
    /// nil: fires once.
    public var repeatInterval: RepeatInterval?
    /// `applicationIconBadgeNumber`: the number the app's icon shows (0 removes the badge);
    /// nil leaves the badge as it is.
    public var badge: Int?
    /// nil: silent.
    public var sound: SoundName?
    /// `alertLaunchImage`: an image of the app's bundle shown while the app launches from it.
    public var launchImage: BundleFileName?
    /// `hasAction`: false shows no action (no "slide to …" on the lock screen, only OK in an alert).
    public var hasAction: Bool
    /// The app's own `userInfo` pairs; `key` is Herald's (the campaign key).
    public var userInfo: [String: String]

    public init(
        fireDate: FireDate, repeatInterval: RepeatInterval? = nil, badge: Int? = nil, sound: SoundName? = nil,
        launchImage: BundleFileName? = nil, hasAction: Bool = true, userInfo: [String: String] = [:]
    ) {
        self.fireDate = fireDate
        self.repeatInterval = repeatInterval
        self.badge = badge
        self.sound = sound
        self.launchImage = launchImage
        self.hasAction = hasAction
        self.userInfo = userInfo
    }

    /// The largest badge Herald publishes: no count a person reads is larger.
    public static let maximumBadge = 99_999
    /// The `userInfo` key that carries the campaign key.
    public static let identityKey = "key"

    public func problems() -> [ValidationError] {
        var problems: [ValidationError] = []
        if let badge { problems += collect { try Self.checkBadge(badge) } }
        for (name, value) in userInfo.sorted(by: { $0.key < $1.key }) {
            problems += collect { try Self.checkUserInfo(name: name, value: value) }
        }
        return problems
    }

    public static func checkBadge(_ badge: Int) throws(ValidationError) {
        guard (0...maximumBadge).contains(badge) else {
            throw ValidationError(
                message: "badge \(badge) is not a badge: give a whole number from 0 to \(maximumBadge) (0 removes the app's badge; "
                    + "leave it out to leave the badge as it is)")
        }
    }

    /// A `userInfo` pair: a plain name (letters, digits, `_ . -`, starting with a letter, up to
    /// 64), never `key` (Herald's), and text a property list can carry.
    public static func checkUserInfo(name: String, value: String) throws(ValidationError) {
        if name == identityKey {
            throw ValidationError(
                message: "userInfo key \"key\" is Herald's: it carries the campaign key, the identity the app cancels the "
                    + "notification by; name your pair otherwise")
        }
        let bytes = Array(name.utf8)
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        let plain =
            (1...64).contains(bytes.count) && isLetter(bytes[0])
            && bytes.allSatisfy {
                isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_")
                    || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            }
        guard plain else {
            throw ValidationError(
                message: "userInfo key \(quote(name)) is not a plain name: use up to 64 letters, digits, _, . and -, starting with a letter")
        }
        try XMLText.check(value, field: "userInfo \(name)")
        guard value.count <= 1_000 else {
            throw ValidationError(message: "userInfo \(name) is \(value.count) characters: keep a value to 1000 (pass an id, not a document)")
        }
    }

    /// `name=value` (the value may hold `=`), as `--user-info` takes it.
    public static func userInfoPair(_ text: String) throws(ValidationError) -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "=") else {
            throw ValidationError(message: "--user-info \(quote(text)) needs the form name=value")
        }
        let name = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        try checkUserInfo(name: name, value: value)
        return (name, value)
    }

    /// Every pair the device gets: the app's pairs and `key` → the campaign key.
    public func publishedUserInfo(campaign: Slug) -> [String: String] {
        var pairs = userInfo
        pairs[Self.identityKey] = campaign.rawValue
        return pairs
    }
}

/// A local notification's words in one locale: `alertBody` and `alertAction`.
public struct LocalContent: Hashable, Sendable {
    public var body: String
    /// The action's label ("slide to <action>" on the lock screen, the alert's button); nil
    /// shows iOS's own label (View) in the device's language.
    public var action: String?

    public init(body: String, action: String? = nil) {
        self.body = body
        self.action = action
    }

    func problems() -> [ValidationError] {
        var problems = collect { try XMLText.checkRequired(body, field: "body") }
        if let action { problems += collect { try XMLText.checkRequired(action, field: "action") } }
        return problems
    }
}

/// `repeatInterval`, as the calendar unit it names. iOS repeats no local notification more
/// often than every minute.
public enum RepeatInterval: String, CaseIterable, Hashable, Sendable {
    case minute, hour, day, week, month, year

    public init(_ text: String) throws(ValidationError) {
        if let interval = Self(rawValue: text) {
            self = interval
            return
        }
        let lower = text.lowercased()
        if ["second", "seconds", "sec", "s"].contains(lower) {
            throw ValidationError(
                message: "repeat \(quote(text)) is shorter than iOS allows: local notifications repeat at most every minute; "
                    + "use one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        throw ValidationError(
            message: "unknown repeat \(quote(text)): use one of \(Self.allCases.map(\.rawValue).joined(separator: ", ")) "
                + "(the calendar unit it repeats by)")
    }
}

/// A sound a notification plays: `default` (the system's, UILocalNotificationDefaultSoundName)
/// or a sound file of the app's bundle by its plain name. iOS plays .caf, .aif, .aiff and .wav
/// files and plays the default sound for any other name, so other names are refused.
public struct SoundName: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public static let defaultSound = "default"
    public static let playedExtensions = ["caf", "aif", "aiff", "wav"]

    public init(_ raw: String) throws(ValidationError) {
        if raw == Self.defaultSound {
            rawValue = raw
            return
        }
        do throws(ValidationError) {
            _ = try BundleFileName(raw, what: "sound")
        } catch {
            throw ValidationError(message: error.message + ", or default for the system's sound")
        }
        let ext = raw.split(separator: ".").last.map { $0.lowercased() } ?? ""
        guard raw.contains("."), Self.playedExtensions.contains(ext) else {
            throw ValidationError(
                message: "sound \(quote(raw)) is not a file iOS plays for a notification: give a .caf, .aif, .aiff or .wav file of "
                    + "the app's bundle (iOS plays the default sound instead of anything else), or default")
        }
        rawValue = raw
    }

    public var isDefault: Bool { rawValue == Self.defaultSound }
    public var description: String { rawValue }
}

/// A file of the app's bundle by its plain name (`Reminder.png`): no folder, nothing hidden.
public struct BundleFileName: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ raw: String) throws(ValidationError) {
        try self.init(raw, what: "launch image")
    }

    init(_ raw: String, what: String) throws(ValidationError) {
        let bytes = Array(raw.utf8)
        func allowed(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || [UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: " "), UInt8(ascii: "@"), UInt8(ascii: "~"),
                    UInt8(ascii: "+")].contains(byte)
        }
        guard (1...255).contains(bytes.count), bytes[0] != UInt8(ascii: "."), bytes[0] != UInt8(ascii: " "),
            bytes.last != UInt8(ascii: " "), bytes.allSatisfy(allowed)
        else {
            throw ValidationError(
                message: "\(what) \(quote(raw)) is not a plain file name: give the name of a file in the app's bundle "
                    + "(letters, digits, space, _ - . @ ~ +; no folder, not hidden), e.g. Chime.caf")
        }
        rawValue = raw
    }

    public var description: String { rawValue }
}
