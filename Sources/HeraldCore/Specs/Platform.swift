/// The platform an app runs on.
public enum Platform: String, CaseIterable, Codable, Sendable {
    case ios, macos
}
