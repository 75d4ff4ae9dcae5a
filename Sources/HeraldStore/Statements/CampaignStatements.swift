/// queries/campaigns.sql: which campaigns `loaded-campaigns` chooses, the parameters of the
/// six load statements that start with it.
struct LoadedCampaigns: QueryParameters, Sendable {
    /// The apps' ids as one array literal, made once for all six statements.
    let apps: EncodedParameter
    /// One campaign, or nil for every campaign of the apps.
    let key: String?
    let activeOnly: Bool
}
