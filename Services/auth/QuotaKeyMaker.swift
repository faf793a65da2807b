import Crypto
import Foundation

/// Makes the key a person's daily scan count is kept under: HMAC-SHA256 of their Apple `sub` with
/// `QUOTA_KEY_SECRET`. It is the same for every account the same Apple id ever signs up as, so deleting the account
/// does not reset the day's quota, and it names nobody: without the secret it cannot be linked to a `sub`, and once
/// the account is gone nothing links it to the person (docs/architecture.md, "What is kept after an account is deleted").
struct QuotaKeyMaker: Sendable {
    private let key: SymmetricKey

    init(secret: String) {
        key = SymmetricKey(data: Data(secret.utf8))
    }

    /// The 32-byte key for an Apple user id (`sub`).
    func quotaKey(forAppleUserID appleUserID: String) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data("kiwi.scan-quota.v1:\(appleUserID)".utf8), using: key))
    }
}
