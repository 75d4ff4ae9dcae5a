/// Where a Notable banner slides in from; absent means bottom on the device.
public enum ViewOrigin: String, CaseIterable, Codable, Sendable {
    case top, bottom
}
