import Foundation
import KiwiMessaging
import KiwiModels
import KiwiScanMessages
import KiwiScans

/// How a worker of the release before sealed profiles (f91d2f1, `SealedScanJob.init(message:)`) read a job's profile:
/// a header it could not read as a profile's JSON made the message no job, rejected to the dead-letter queue, and a
/// missing header meant no profile, guarded against nothing. Kept to prove that such a worker refuses every job of
/// this release rather than answer it unguarded (docs/operations.md, "Upgrading").
enum PreviousReleaseJobReader {
    static func read(_ message: AMQPMessage) throws(ScanJobDecodingError) -> KitchenProfile? {
        guard let json = message.properties.headers[ScanJob.Header.profile] else { return nil }
        guard let decoded = try? JSONDecoder().decode(KitchenProfile.self, from: Data(json.utf8)) else {
            throw ScanJobDecodingError("the job's \(ScanJob.Header.profile) header is not a profile")
        }
        return decoded
    }
}
