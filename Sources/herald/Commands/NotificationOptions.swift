import ArgumentParser
import HeraldCore

/// The flags of `campaign create` and `campaign update` that hold in every locale: a local
/// campaign's notification and a story's push sound and badge (HeraldCore's NotificationFlags
/// applies them).
struct NotificationOptions: ParsableArguments {
    @Option(
        name: .customLong("fire-at"),
        help: ArgumentHelp(
            "Local notification fire time: 2026-12-24T09:00 (09:00 on each device's own clock, wherever it is) or with a zone, "
                + "2026-12-24T08:00:00Z (one instant everywhere).", valueName: "time"))
    var fireAt: String?
    @Option(
        name: .customLong("repeat"),
        help: ArgumentHelp("Local notification repeat: minute, hour, day, week, month or year (default: fires once).", valueName: "unit"))
    var repeatInterval: String?
    // `.unconditional`: the value after the flag is the value, even `-1` (which would otherwise
    // read as a flag, leaving the option without one): a badge's words say what is wrong with it.
    @Option(parsing: .unconditional, help: ArgumentHelp("Local notification badge on the app's icon (0 removes the badge).", valueName: "n"))
    var badge: String?
    @Option(help: ArgumentHelp("Local notification sound: default, or a .caf/.aif/.wav file of the app's bundle (default: silent).", valueName: "name"))
    var sound: String?
    @Option(name: .customLong("launch-image"), help: ArgumentHelp("Local notification launch image, a file of the app's bundle.", valueName: "name"))
    var launchImage: String?
    @Flag(name: .customLong("no-action"), help: "Local notification without an action (no \"slide to …\"; an alert shows only OK).")
    var noAction = false
    @Option(
        name: .customLong("user-info"),
        help: ArgumentHelp("Local notification userInfo pair for the app (repeatable); `key` is Herald's, the campaign key.", valueName: "name=value"))
    var userInfo: [String] = []
    @Option(
        name: .customLong("remove-user-info"),
        help: ArgumentHelp("Remove a local notification's userInfo pair, by name (repeatable; update only).", valueName: "name"))
    var removeUserInfo: [String] = []
    @Option(name: .customLong("push-sound"), help: ArgumentHelp("Story push sound: default, or a .caf/.aif/.wav file of the app's bundle.", valueName: "name"))
    var pushSound: String?
    @Option(
        name: .customLong("push-badge"), parsing: .unconditional,
        help: ArgumentHelp("Story push badge: a number (0 removes it), or a change of Pushwoosh's count, +1 or -1.", valueName: "n|+n|-n"))
    var pushBadge: String?

    var flags: NotificationFlags {
        var flags = NotificationFlags()
        (flags.fireAt, flags.repeatInterval, flags.badge, flags.sound) = (fireAt, repeatInterval, badge, sound)
        (flags.launchImage, flags.noAction, flags.userInfo, flags.removeUserInfo) = (launchImage, noAction, userInfo, removeUserInfo)
        (flags.pushSound, flags.pushBadge) = (pushSound, pushBadge)
        return flags
    }

    /// Applies the flags to `spec`; `clearing` the fields `--clear` names, `givesAction` whether `--action` is given.
    func apply(to spec: inout CampaignSpec, clearing: [ClearableField] = [], givesAction: Bool) throws {
        let cleared = Set(clearing.compactMap(\.notification))
        guard !flags.isEmpty || !cleared.isEmpty || (givesAction && spec.kind == .local) else { return }
        try flags.apply(to: &spec, clearing: cleared, givesAction: givesAction)
    }
}
