import Crypto
import Foundation

/// The key one scan's photos and profile travel sealed under (docs/architecture.md, "Photos at rest: crypto-shredding"): 256 random
/// bits, made by the gateway for each scan and kept on the scan's row only while the scan is open. Once the row drops
/// it, a copy of the job on a broker's disk is noise to anyone without an older copy of the key: PostgreSQL's WAL, the
/// row's old versions and its physical backups and WAL archives keep one longer (docs/architecture.md, "What a backup
/// reveals").
///
/// A sealed body is `nonce (12 bytes) || ciphertext || tag (16 bytes)`, AES-256-GCM, authenticating the scan id's 16
/// raw bytes and the part's name (``Part``): a body opens only with its own scan's key, and only as that part of that
/// scan's job.
public struct PhotoKey: Sendable, Equatable, CustomStringConvertible {
    private let key: SymmetricKey

    /// The bytes a sealed body adds to what it seals: its nonce and its tag.
    public static let overhead = nonceSize + tagSize
    private static let nonceSize = 12
    private static let tagSize = 16
    /// The size of a key, in bytes.
    public static let size = 32

    /// A fresh random key.
    public init() {
        key = SymmetricKey(size: .bits256)
    }

    /// The key stored as `bytes` (the scan's `photo_key`); nil unless they are ``size`` bytes.
    public init?(_ bytes: Data) {
        guard bytes.count == Self.size else { return nil }
        key = SymmetricKey(data: bytes)
    }

    /// The key's bytes, for the scan's row and nowhere else.
    public var bytes: Data {
        key.withUnsafeBytes { Data($0) }
    }

    /// Never the key itself, so that no log or test failure prints it.
    public var description: String { "PhotoKey(redacted)" }

    /// A part of a scan's job sealed under its key. Each part authenticates its own name, so that one part's
    /// sealed bytes never open as another's.
    public enum Part: Sendable {
        /// The job's body: its photos.
        case photos
        /// The profile the job is answered for (``ScanJob/Header/profile``).
        case profile
        /// The household members the job cooks for (``ScanJob/Header/table``).
        case table

        fileprivate var label: Data {
            switch self {
            case .photos: Data()
            case .profile: Data("profile".utf8)
            case .table: Data("table".utf8)
            }
        }
    }

    /// `plaintext` sealed as `part` of scan `scanID`'s job.
    public func seal(_ plaintext: [UInt8], for scanID: UUID, part: Part = .photos) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Self.authenticatedData(of: scanID, part))
        // Written out part by part rather than through `combined`, which would be one more copy of the photos.
        var body: [UInt8] = []
        body.reserveCapacity(Self.overhead + box.ciphertext.count)
        box.nonce.withUnsafeBytes { body.append(contentsOf: $0) }
        body.append(contentsOf: box.ciphertext)
        body.append(contentsOf: box.tag)
        return body
    }

    /// What ``seal(_:for:part:)`` sealed as `part` for scan `scanID`. Throws ``Unopenable`` when `body` was sealed
    /// under another key, for another scan or as another part, was changed in any byte, or is too short to be sealed.
    public func open(_ body: [UInt8], for scanID: UUID, part: Part = .photos) throws(Unopenable) -> [UInt8] {
        do {
            let box = try AES.GCM.SealedBox(combined: body)
            return Array(try AES.GCM.open(box, using: key, authenticating: Self.authenticatedData(of: scanID, part)))
        } catch {
            throw Unopenable()
        }
    }

    /// A body that does not open with a key: noise, or tampered with.
    public struct Unopenable: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String { "does not open with its scan's key" }
    }

    /// The scan id's 16 raw bytes, then the part's name: the photos' is empty, as it was before the profile was sealed.
    private static func authenticatedData(of scanID: UUID, _ part: Part) -> Data {
        withUnsafeBytes(of: scanID.uuid) { Data($0) } + part.label
    }
}
