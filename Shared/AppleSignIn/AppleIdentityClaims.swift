import Foundation
import JWTKit

/// The claims of a Sign in with Apple identity token.
///
/// Apple's format varies between years: `email` may be absent, and `email_verified` / `is_private_email`
/// arrive as strings (`"true"`) in older tokens and as booleans in newer ones; `BoolClaim` reads both.
public struct AppleIdentityClaims: JWTPayload, Equatable {
    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case audience = "aud"
        case expires = "exp"
        case issuedAt = "iat"
        case subject = "sub"
        case email
        case emailVerified = "email_verified"
        case isPrivateEmail = "is_private_email"
    }

    public var issuer: IssuerClaim
    public var audience: AudienceClaim
    public var expires: ExpirationClaim
    public var issuedAt: IssuedAtClaim
    /// Apple's stable identifier of the user for this team.
    public var subject: SubjectClaim
    public var email: String?
    public var emailVerified: BoolClaim?
    public var isPrivateEmail: BoolClaim?

    public init(
        issuer: String = AppleIdentityTokenVerifier.issuer,
        audience: String,
        expires: Date,
        issuedAt: Date,
        subject: String,
        email: String? = nil,
        emailVerified: Bool? = nil,
        isPrivateEmail: Bool? = nil
    ) {
        self.issuer = IssuerClaim(value: issuer)
        self.audience = AudienceClaim(value: [audience])
        self.expires = ExpirationClaim(value: expires)
        self.issuedAt = IssuedAtClaim(value: issuedAt)
        self.subject = SubjectClaim(value: subject)
        self.email = email
        self.emailVerified = emailVerified.map(BoolClaim.init(value:))
        self.isPrivateEmail = isPrivateEmail.map(BoolClaim.init(value:))
    }

    /// A no-op: the claims are checked by ``AppleIdentityTokenVerifier`` against its own clock and leeway,
    /// which jwt-kit's checks (wall clock, no leeway) cannot be given.
    public func verify(using _: some JWTAlgorithm) throws {}
}

/// Who an identity token says the user is, once verified.
public struct AppleIdentity: Hashable, Sendable {
    /// Apple's stable user identifier (`sub`).
    public let subject: String
    /// Possibly a private relay address; absent after the first sign-in.
    public let email: String?
    public let isPrivateEmail: Bool?

    public init(subject: String, email: String?, isPrivateEmail: Bool?) {
        self.subject = subject
        self.email = email
        self.isPrivateEmail = isPrivateEmail
    }
}
