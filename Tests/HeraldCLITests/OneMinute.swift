import Foundation

/// A board made without `--at` (as from cron) shows "now" to the minute, so a board made again
/// in the next minute rightly rewrites what moved. A test of "made again at once, nothing is
/// written" runs its pair of boards through `withinOneMinute`, which makes the pair again when a
/// minute turned during it (a loaded machine can take seconds over the pair); at most three
/// times, since two pairs in a row cannot both straddle a minute.
enum OneMinute {
    static func withinOneMinute<T>(_ pair: () throws -> T) rethrows -> T {
        for _ in 0..<2 {
            let minute = current
            let result = try pair()
            if current == minute { return result }
        }
        return try pair()
    }

    private static var current: Int { Int(Date().timeIntervalSince1970 / 60) }
}
