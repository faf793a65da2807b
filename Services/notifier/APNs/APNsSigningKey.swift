import Foundation
import JWTKit
import KiwiConfiguration
import KiwiModels

/// The key a provider token is signed with (Apple, "Establishing a token-based connection to APNs"): the P-256
/// private key of the `.p8` file Apple issued, its 10-character key id (the JWT's `kid`) and the team's id (`iss`).
struct APNsSigningKey: Sendable {
    var key: ES256PrivateKey
    var keyID: String
    var teamID: String

    /// A team or key id: Apple's are 10 characters of upper-case letters and digits.
    static func identifier(parsing text: String) throws -> String {
        guard text.count == 10, text.allSatisfy({ ($0.isASCII && $0.isNumber) || ("A"..."Z").contains($0) }) else {
            throw ConfigurationError.Reason("must be the 10 upper-case letters and digits Apple shows for it")
        }
        return text
    }

    /// The `.p8` file's text, its line breaks as they are or written `\n` (as an `.env` file holds it on one line).
    static func privateKey(parsing text: String) throws -> ES256PrivateKey {
        do {
            return try ES256PrivateKey(pem: text.replacingOccurrences(of: "\\n", with: "\n").trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw ConfigurationError.Reason("must be the PEM text of the .p8 key Apple issued, a P-256 private key")
        }
    }
}

/// Where notifications for each APNs environment go (``PushEnvironment``): a phone's token works only on the host of
/// the environment its app was built for.
struct APNsEndpoints: Sendable {
    var production: URL
    var sandbox: URL

    func url(of environment: PushEnvironment) -> URL {
        switch environment {
        case .production: production
        case .sandbox: sandbox
        }
    }
}
