/// One versioned step of the schema. Its statements run in one transaction, in order.
public struct Migration: Sendable {
    /// Applied in ascending order; never reused or renumbered once released.
    public let version: Int
    public let name: String
    public let statements: [String]

    public init(version: Int, name: String, statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
