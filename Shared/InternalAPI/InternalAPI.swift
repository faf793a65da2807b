import Crypto
import Foundation
import KiwiModels

/// The auth service's internal HTTP API, which only the gateway calls (docs/architecture.md, "3. The auth flow"). Every request
/// carries `Authorization: Bearer <INTERNAL_API_TOKEN>`; without it, or with a wrong one, the answer is 403.
public enum InternalAPI {
    /// `POST` a ``SessionTokenBody``: 200 ``SessionIntrospection``, or 401 when the token is unknown, expired or revoked.
    public static let introspectPath = "/internal/v1/sessions/introspect"
    /// `POST` a ``SessionTokenBody``: 204; the session is gone, whether or not it existed.
    public static let revokePath = "/internal/v1/sessions/revoke"
    /// `GET /internal/v1/users/{id}`: 200 ``UserAccount``, or 404 when there is no such user. `DELETE`: 204; the user
    /// and everything of theirs is gone.
    public static func userPath(_ id: UUID) -> String { "/internal/v1/users/\(id.uuidString.lowercased())" }
}

/// A session token the gateway received from a client.
public struct SessionTokenBody: Codable, Hashable, Sendable {
    public var token: String

    public init(token: String) {
        self.token = token
    }
}

/// Whose session a token is, until when, and the key that person's daily scans are counted under.
public struct SessionIntrospection: Codable, Hashable, Sendable {
    public var userId: UUID
    public var expiresAt: Date
    /// Hex HMAC-SHA256 of the user's Apple `sub` (32 bytes): the same for every account of one Apple id, so the
    /// day's quota survives deleting the account and signing up again. It carries no personal data.
    public var quotaKey: String

    public init(userId: UUID, expiresAt: Date, quotaKey: String) {
        self.userId = userId
        self.expiresAt = expiresAt
        self.quotaKey = quotaKey
    }
}

/// Announced on the revocation exchange when sessions end early, so that every gateway drops what it cached.
public struct RevocationEvent: Codable, Hashable, Sendable {
    /// Hex SHA-256 of a revoked session token (never the token itself).
    public var sessionTokenHash: String?
    /// A deleted user: every one of their sessions is gone.
    public var userId: UUID?

    public static func session(tokenHash: String) -> RevocationEvent {
        RevocationEvent(sessionTokenHash: tokenHash, userId: nil)
    }

    public static func user(_ id: UUID) -> RevocationEvent {
        RevocationEvent(sessionTokenHash: nil, userId: id)
    }
}

/// How services name a session token without keeping it: its SHA-256. The auth service stores the digest; revocation
/// events and the gateway's session cache use its hex form.
public enum SessionTokenDigest {
    /// The SHA-256 of a token as a client presents it.
    public static func sha256(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }

    /// The digest in lowercase hex.
    public static func hex(_ token: String) -> String {
        sha256(token).hexEncodedString
    }
}
