/// Sound and badge of a story's push (APNs `aps.sound` and `aps.badge`; in Pushwoosh's
/// createMessage, `ios_sound` and `ios_badges`). The same in every locale.
public struct PushOptions: Hashable, Sendable {
    /// nil: silent.
    public var sound: SoundName?
    /// nil: the badge stays as it is.
    public var badge: PushBadge?

    public init(sound: SoundName? = nil, badge: PushBadge? = nil) {
        self.sound = sound
        self.badge = badge
    }

    public var isEmpty: Bool { sound == nil && badge == nil }
}

/// A push's badge as Pushwoosh's `ios_badges` takes it: a number (`3`; 0 removes the badge),
/// or a change to the badge Pushwoosh keeps for each device (`+1`, `-1`).
public enum PushBadge: Hashable, Sendable, CustomStringConvertible {
    case set(Int)
    /// Never 0.
    case change(Int)

    public init(_ text: String) throws(ValidationError) {
        let sign = text.first.flatMap { $0 == "+" ? 1 : $0 == "-" ? -1 : nil }
        let digits = sign == nil ? Substring(text) : text.dropFirst()
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            throw ValidationError(
                message: "push badge \(quote(text)) is not a badge: give a number (3; 0 removes the badge) or a change, +1 or -1")
        }
        let limit = LocalNotification.maximumBadge
        if let sign {
            guard number > 0 else {
                throw ValidationError(message: "push badge \(quote(text)) changes nothing: leave the badge out to leave it as it is")
            }
            guard number <= limit else {
                throw ValidationError(message: "push badge \(quote(text)) is not a change a badge makes: give at most \(sign > 0 ? "+" : "-")\(limit)")
            }
            self = .change(sign * number)
        } else {
            guard number <= limit else {
                throw ValidationError(message: "push badge \(quote(text)) is not a badge: give a number from 0 to \(limit)")
            }
            self = .set(number)
        }
    }

    /// `3`, `+1`, `-2`: how Herald writes it, and reads it back.
    public var description: String {
        switch self {
        case .set(let number): String(number)
        case .change(let delta): delta > 0 ? "+\(delta)" : String(delta)
        }
    }
}
