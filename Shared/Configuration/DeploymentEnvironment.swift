/// Where a service runs (`KIWI_ENV`). Development-only conveniences are refused in production.
public enum DeploymentEnvironment: String, Sendable, CaseIterable {
    case production
    case development

    /// Parses a `KIWI_ENV` value.
    public init(parsing text: String) throws {
        guard let environment = DeploymentEnvironment(rawValue: text.lowercased()) else {
            throw ConfigurationError.Reason("must be production or development")
        }
        self = environment
    }
}
