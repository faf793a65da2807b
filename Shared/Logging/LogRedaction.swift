import Foundation

/// How identifying values may appear in logs (docs/architecture.md, "5. Privacy guarantees").
public enum LogRedaction {
    /// A user id shortened to its first 8 characters: enough to follow one user through the logs, not to name them.
    public static func userID(_ id: UUID) -> String {
        String(id.uuidString.lowercased().prefix(8))
    }

    /// A pseudonymous user key (a scan job's `x-kiwi-user-key`) shortened the same way.
    public static func userKey(_ key: String) -> String {
        String(key.prefix(8))
    }
}
