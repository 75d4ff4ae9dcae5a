/// Herald's advisory locks (session-level unless said otherwise): one 64-bit key each, the same in every process and
/// on every machine sharing the database. The keys spell their purpose in ASCII.
public enum AdvisoryLock: Int64, Sendable, CaseIterable {
    /// Serialises publishes and rollbacks ("HRLDPUBL").
    case publish = 0x4852_4C44_5055_424C
    /// Serialises migrators ("HRLDMIGR").
    case migrate = 0x4852_4C44_4D49_4752
    /// Taken for a transaction by applies that create tenants ("HRLDAPNT"; see ApplyTurns).
    case applyCreatingTenants = 0x4852_4C44_4150_4E54
}
