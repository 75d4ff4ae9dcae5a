import Foundation

extension OperatorSession {
    /// Takes a transaction-scoped advisory lock named after `name` (a folder being written,
    /// such as the review board's), or returns false at once when another transaction holds
    /// it. Released when the transaction ends: hold the transaction while writing.
    public func tryFolderLock(_ name: String) throws -> Bool {
        try connection.query(TryFolderLock(folder: name))[0].decode("locked")
    }
}
