/// String comparison as Foundation's `compare(_:options: .numeric)` does it, which is how the
/// Notable and iNotify clients compare versions on the device (Foundation's
/// `CFStringCompareWithOptionsAndLocale` with `kCFCompareNumerically`):
///
/// - where both strings have an ASCII digit, the two runs of digits compare by value
///   (`9 < 10`; `02` equals `2`), and the value is added up in an unsigned 64-bit integer that
///   wraps silently, as Foundation's does (`18446744073709551616` equals `0`);
/// - any other pair of characters compares by UTF-16 code unit (`-` < `.` < digits <
///   capitals < lowercase letters);
/// - a string that runs out first sorts first (`2.4 < 2.4.0`, `2.10 < 2.10b1`).
///
/// Exact for ASCII, which is all `Version` admits; property-tested against Foundation.
public enum NumericSearch {
    /// -1, 0 or 1.
    public static func compare(_ lhs: String, _ rhs: String) -> Int {
        var a = lhs.utf16.makeIterator()
        var b = rhs.utf16.makeIterator()
        var x = a.next()
        var y = b.next()
        while let cx = x, let cy = y {
            if isDigit(cx), isDigit(cy) {
                var valueX: UInt64 = 0
                var valueY: UInt64 = 0
                while let digit = x, isDigit(digit) {
                    valueX = valueX &* 10 &+ UInt64(digit &- 0x30)
                    x = a.next()
                }
                while let digit = y, isDigit(digit) {
                    valueY = valueY &* 10 &+ UInt64(digit &- 0x30)
                    y = b.next()
                }
                if valueX != valueY { return valueX < valueY ? -1 : 1 }
            } else {
                if cx != cy { return cx < cy ? -1 : 1 }
                x = a.next()
                y = b.next()
            }
        }
        if x != nil { return 1 }
        if y != nil { return -1 }
        return 0
    }

    static func isDigit(_ unit: UInt16) -> Bool {
        unit >= 0x30 && unit <= 0x39
    }
}
