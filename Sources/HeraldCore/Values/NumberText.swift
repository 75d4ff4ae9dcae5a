/// How Herald writes a decimal everywhere (JSON, YAML, tables): 88 for 88.0, 4.5 for 4.5,
/// 0.1 for 0.1 — integers without a fraction, other numbers in their shortest exact form.
public enum NumberText {
    public static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
