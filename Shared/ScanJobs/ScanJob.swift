import Crypto
import Foundation
import KiwiMessaging
import KiwiModels

/// The photos of one scan to turn into recipes, or a refinement's confirmed ingredients: what the gateway publishes to
/// ``KiwiTopology/scanJobQueue`` and a scan worker consumes (docs/architecture.md, "2. The scan data flow", step 6).
///
/// On the queue the body is the raw JPEG (no base64), or the JPEGs one after the other with their sizes in a header,
/// and everything else travels in properties and headers. A refinement's body is empty, its names in a header.
/// Jobs are never persisted by the broker: photos are not written to disk anywhere. The worker writes the outcome
/// on the scan's record, not in a reply.
public struct ScanJob: Sendable, Hashable {
    /// The scan this job is the work of: its record in the `scans` table.
    public var scanID: UUID
    /// The JPEGs exactly as the client uploaded them: one to ``ScanPhoto/maximumCount``; none for a refinement.
    public var photos: [[UInt8]]
    /// A refinement's ingredient names as the person confirmed them (docs/architecture.md, "Refinements"); nil for a
    /// photo scan.
    public var ingredients: [String]?
    /// What the photos show.
    public var mode: ScanMode
    /// When the gateway stops waiting; a worker answers before it or not at all.
    public var deadline: Date
    /// The client's request id, for correlating logs across services.
    public var requestID: String?
    /// A pseudonym of the user (see ``userKey(forUserID:)``); never the user id itself.
    public var userKey: String
    /// The user's profile as it was when the scan started; nil when they have none. A redelivered job is answered
    /// for the same profile.
    public var profile: KitchenProfile?

    public init(
        scanID: UUID,
        photos: [[UInt8]],
        mode: ScanMode = .fridge,
        deadline: Date,
        requestID: String?,
        userKey: String,
        profile: KitchenProfile? = nil,
        ingredients: [String]? = nil
    ) {
        self.scanID = scanID
        self.photos = photos
        self.ingredients = ingredients
        self.mode = mode
        self.deadline = deadline
        self.requestID = requestID
        self.userKey = userKey
        self.profile = profile
    }

    /// Header names of the job message.
    public enum Header {
        public static let scanID = "x-kiwi-scan-id"
        /// The deadline as milliseconds since 1970 (UTC), so services on different hosts agree on it.
        public static let deadline = "x-kiwi-deadline"
        public static let requestID = "x-request-id"
        public static let userKey = "x-kiwi-user-key"
        /// The profile as JSON (a few kilobytes at most: the profile's rules bound it).
        public static let profile = "x-kiwi-profile"
        /// With several photos, the size of each in bytes, comma-separated, in the body's order.
        public static let photoSizes = "x-kiwi-photo-sizes"
        /// `dish` for a dish scan; absent for a fridge scan.
        public static let mode = "x-kiwi-mode"
        /// A refinement's ingredient names, a JSON array of strings (at most 40 of 100 characters: a few kilobytes).
        public static let ingredients = "x-kiwi-ingredients"
    }

    /// The job's content type: the body is a JPEG, or several one after the other (``Header/photoSizes``).
    public static let contentType = "image/jpeg"

    /// The pseudonymous key of a user: 32 hex digits of a SHA-256 over the user id. Stable, so OpenAI's abuse
    /// detection (`safety_identifier`) and logs can tell users apart, but it is not the id.
    public static func userKey(forUserID userID: String) -> String {
        let digest = SHA256.hash(data: Data("kiwi-user-key-v1:\(userID)".utf8))
        return digest.prefix(16).hexEncodedString
    }

    /// The job as a message, transient and expiring at the deadline so an unanswered job leaves the queue by itself.
    public func message(now: Date = Date()) -> AMQPMessage {
        var headers = [
            Header.scanID: scanID.uuidString.lowercased(),
            Header.deadline: String(Int64((deadline.timeIntervalSince1970 * 1000).rounded())),
            Header.userKey: userKey,
        ]
        headers[Header.requestID] = requestID
        headers[Header.profile] = profile.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        if photos.count > 1 { headers[Header.photoSizes] = photos.map { String($0.count) }.joined(separator: ",") }
        if mode != .fridge { headers[Header.mode] = mode.rawValue }
        headers[Header.ingredients] = ingredients.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
        let remaining = max(deadline.timeIntervalSince(now), 0.001)
        return AMQPMessage(
            body: photos.count == 1 ? photos[0] : Array(photos.joined()),
            properties: AMQPProperties(
                contentType: Self.contentType,
                expiration: .milliseconds(Int64((remaining * 1000).rounded(.up))),
                persistent: false,
                headers: headers
            )
        )
    }

    /// Reads a job from a consumed message. Throws when the message is not a job any worker could answer:
    /// it cannot be fixed by trying again, so it belongs in the dead-letter queue.
    public init(message: AMQPMessage) throws(ScanJobDecodingError) {
        let properties = message.properties
        guard let scanID = properties.headers[Header.scanID].flatMap(UUID.init(uuidString:)) else {
            throw ScanJobDecodingError("the job has no \(Header.scanID) header with a scan id")
        }
        guard let deadline = properties.headers[Header.deadline].flatMap(Int64.init) else {
            throw ScanJobDecodingError("the job has no \(Header.deadline) header in milliseconds")
        }
        guard let userKey = properties.headers[Header.userKey], !userKey.isEmpty else {
            throw ScanJobDecodingError("the job has no \(Header.userKey) header")
        }
        let body = message.body
        var photos = [body]
        var ingredients: [String]?
        if let json = properties.headers[Header.ingredients] {
            guard let names = try? JSONDecoder().decode([String].self, from: Data(json.utf8)), !names.isEmpty, body.isEmpty else {
                throw ScanJobDecodingError("the job's \(Header.ingredients) header is not a list of names, or it has photos too")
            }
            ingredients = names
            photos = []
        } else if let sizes = properties.headers[Header.photoSizes] {
            // Each size is bounded before they are summed: a header is untrusted input.
            let counts = sizes.split(separator: ",").compactMap { Int($0) }
            guard counts.count == sizes.split(separator: ",").count, (1...ScanPhoto.maximumCount).contains(counts.count),
                counts.allSatisfy({ (1...ScanPhoto.maximumSize).contains($0) }), counts.reduce(0, +) == body.count
            else {
                throw ScanJobDecodingError("the job's \(Header.photoSizes) header does not divide its body into photos")
            }
            var start = 0
            photos = counts.map { count in
                defer { start += count }
                return Array(body[start..<start + count])
            }
        }
        var mode = ScanMode.fridge
        if let name = properties.headers[Header.mode] {
            guard let named = ScanMode(rawValue: name) else { throw ScanJobDecodingError("the job's \(Header.mode) header names no scan mode") }
            mode = named
        }
        var profile: KitchenProfile?
        if let json = properties.headers[Header.profile] {
            guard let decoded = try? JSONDecoder().decode(KitchenProfile.self, from: Data(json.utf8)) else {
                throw ScanJobDecodingError("the job's \(Header.profile) header is not a profile")
            }
            profile = decoded
        }
        self.init(
            scanID: scanID,
            photos: photos,
            mode: mode,
            deadline: Date(timeIntervalSince1970: Double(deadline) / 1000),
            requestID: properties.headers[Header.requestID],
            userKey: userKey,
            profile: profile,
            ingredients: ingredients
        )
    }
}

/// A message that is not a scan job.
public struct ScanJobDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
