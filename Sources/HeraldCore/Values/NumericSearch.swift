/// String comparison as Foundation's `compare(_:options: .numericSearch)` does it, which is
/// how the Notable and iNotify clients compare versions on the device: runs of digits
/// compare by value (`9 < 10`, and `02` equals `2`), other characters by code point, and a
/// string that is a prefix of the other sorts first (`2.4 < 2.4.0`).
public enum NumericSearch {
    /// -1, 0 or 1.
    public static func compare(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.unicodeScalars)
        let b = Array(rhs.unicodeScalars)
        var i = 0
        var j = 0
        while i < a.count, j < b.count {
            if isDigit(a[i]), isDigit(b[j]) {
                let runA = digitRun(a, from: &i)
                let runB = digitRun(b, from: &j)
                let order = compareDigitRuns(runA, runB)
                if order != 0 { return order }
            } else {
                if a[i] != b[j] { return a[i].value < b[j].value ? -1 : 1 }
                i += 1
                j += 1
            }
        }
        if i < a.count { return 1 }
        if j < b.count { return -1 }
        return 0
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    private static func digitRun(_ scalars: [Unicode.Scalar], from index: inout Int) -> ArraySlice<Unicode.Scalar> {
        let start = index
        while index < scalars.count, isDigit(scalars[index]) { index += 1 }
        var run = scalars[start..<index]
        while run.count > 1, run.first == "0" { run = run.dropFirst() }
        return run
    }

    /// Compares digit runs of any length by value (no overflow): longer is larger once
    /// leading zeros are gone, else digit by digit.
    private static func compareDigitRuns(_ a: ArraySlice<Unicode.Scalar>, _ b: ArraySlice<Unicode.Scalar>) -> Int {
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (x, y) in zip(a, b) where x != y {
            return x.value < y.value ? -1 : 1
        }
        return 0
    }
}
