import Foundation

/// The body of `POST /v1/auth/apple`.
public struct AppleSignInRequest: Codable, Hashable, Sendable {
    /// Apple's identity token: the compact JWT, or base64 of it (clients differ).
    public var identityToken: String

    public init(identityToken: String) {
        self.identityToken = identityToken
    }
}

/// A new session: the bearer token the client sends from now on, and when it stops working.
public struct SessionResponse: Codable, Hashable, Sendable {
    public var sessionToken: String
    public var expiresAt: Date

    public init(sessionToken: String, expiresAt: Date) {
        self.sessionToken = sessionToken
        self.expiresAt = expiresAt
    }
}

/// A user's scan allowance for the current UTC day.
public struct QuotaInfo: Codable, Hashable, Sendable {
    public var remaining: Int
    public var limit: Int
    /// The next midnight UTC, when `remaining` goes back to `limit`.
    public var resetsAt: Date

    public init(remaining: Int, limit: Int, resetsAt: Date) {
        self.remaining = remaining
        self.limit = limit
        self.resetsAt = resetsAt
    }
}

/// The answer to `DELETE /v1/account`.
public struct AccountDeletionResponse: Codable, Hashable, Sendable {
    public var deleted: Bool

    public init(deleted: Bool) {
        self.deleted = deleted
    }
}

/// The answer to `GET /health`.
public struct HealthStatus: Codable, Hashable, Sendable {
    public var status: String

    public init(status: String) {
        self.status = status
    }

    /// The process is up and serving.
    public static let ok = HealthStatus(status: "ok")
}
