import Foundation
import HeraldCore

/// A device's state as `herald preview`'s flags give it: `ID=VALUE` assignments, counts and
/// URL schemes, each refused in words when it cannot be what the clients keep.
extension DeviceState {
    /// `ID=VALUE` → (ID, VALUE).
    public static func pair(_ text: String, flag: String) throws -> (String, String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
            throw ValidationError(message: "\(flag) takes ID=VALUE, not \(Excerpt.quoted(text))")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }

    /// `ID=N` assignments → N by ID, each at least `minimum`.
    public static func counts(_ assignments: [String], flag: String, minimum: Int) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for assignment in assignments {
            let (id, text) = try pair(assignment, flag: flag)
            guard let value = Int(text), value >= 0 else { throw ValidationError(message: "\(flag) \(assignment): the count must be a whole number") }
            guard value >= minimum else {
                throw ValidationError(
                    message: "\(flag) \(assignment): Notable counts the current launch before it checks, so the count is at least \(minimum)")
            }
            result[id] = value
        }
        return result
    }

    /// `weather,https` → the lowercased schemes.
    public static func schemes(_ list: String) throws -> Set<String> {
        var schemes: Set<String> = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let scheme = part.trimmingCharacters(in: .whitespaces).lowercased()
            let valid = scheme.first.map { $0.isASCII && $0.isLetter } == true
                && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }
            guard valid else {
                throw ValidationError(message: "--can-open \(list): \"\(part)\" is not a URL scheme (such as https or weather)")
            }
            schemes.insert(scheme)
        }
        return schemes
    }
}
