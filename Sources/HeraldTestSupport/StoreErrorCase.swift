import HeraldStore

extension StoreError {
    /// A case of `StoreError` without its words: what a test names when it expects a refusal.
    public enum Case: Sendable, Equatable {
        case invalid, notFound, conflict, unavailable, schema, busy, permissionDenied, database
    }

    public var `case`: Case {
        switch self {
        case .invalid: .invalid
        case .notFound: .notFound
        case .conflict: .conflict
        case .unavailable: .unavailable
        case .schema: .schema
        case .busy: .busy
        case .permissionDenied: .permissionDenied
        case .database: .database
        }
    }
}

/// Whether an error is a `StoreError` of case `expected`, for `#expect { … } throws: isStoreError(.notFound)`.
public func isStoreError(_ expected: StoreError.Case) -> @Sendable (any Error) -> Bool {
    { ($0 as? StoreError)?.case == expected }
}
