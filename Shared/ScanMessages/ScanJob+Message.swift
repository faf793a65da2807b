import Crypto
import Foundation
import KiwiMessaging
import KiwiModels
import KiwiScans
import KiwiTopology

/// A scan job as a message on ``KiwiTopology/scanJobQueue`` (docs/architecture.md, "2. The scan data flow"): the body
/// the photos, sealed; the profile sealed in a header; everything else in headers and properties.
extension ScanJob {
    /// Header names of the job message.
    public enum Header {
        public static let scanID = "x-kiwi-scan-id"
        /// The deadline as milliseconds since 1970 (UTC), so services on different hosts agree on it.
        public static let deadline = "x-kiwi-deadline"
        public static let requestID = "x-request-id"
        public static let userKey = "x-kiwi-user-key"
        /// The job's format, ``currentFormat``; absent in a job of a gateway of the release before it.
        public static let format = "x-kiwi-job-format"
        /// The profile's JSON sealed under the scan's key, in base64 (a few kilobytes at most: the profile's rules
        /// bound it); in a job without ``format``, the profile's JSON in the clear. A worker of the release before
        /// ``currentFormat`` reads this header as JSON, so it refuses a sealed one to the dead-letter queue rather than
        /// answer the scan unguarded (docs/operations.md, "Upgrading").
        public static let profile = "x-kiwi-profile"
        /// The table's seats (``ScanJob/table``) as JSON sealed under the scan's key, in base64, like ``profile``: each
        /// member's allergies and diets are health data. Absent for a scan outside a household; a worker of the release
        /// before ignores it and guards with the profile alone, which already holds every member's rules.
        public static let table = "x-kiwi-table"
        /// With several photos, the size of each in bytes, comma-separated, in the body's order.
        public static let photoSizes = "x-kiwi-photo-sizes"
        /// `dish` for a dish scan; absent for a fridge scan.
        public static let mode = "x-kiwi-mode"
        /// A refinement's ingredient names, a JSON array of strings (at most 40 of 100 characters: a few kilobytes).
        public static let ingredients = "x-kiwi-ingredients"
        /// A pantry scan's items (``ScanJob/pantry``), a JSON array of objects (at most 40: a few kilobytes), beside
        /// their names in ``ingredients``.
        public static let pantry = "x-kiwi-pantry"
        /// A plan's request (``ScanJob/plan``), a JSON object, beside its pantry's items in ``pantry`` (an empty list
        /// when the pantry is empty) and no ``ingredients``: a worker of the release before finds neither names nor a
        /// photo in it, and fails the scan, refunded. Absent for any other scan.
        public static let plan = "x-kiwi-plan"
        /// A planned meal's recipe request (``ScanJob/meal``), a JSON object with its pantry items (a few kilobytes),
        /// and no ``plan``, ``pantry`` or ``ingredients``: a worker of the release before finds neither names nor a
        /// photo in it, and fails the scan. Absent for any other scan.
        public static let meal = "x-kiwi-meal"
        /// A planned meal's replacement (``ScanJob/replacement``), a JSON object with the plan's other meals and the
        /// pantry's free items (tens of kilobytes at most), and no ``plan``, ``pantry`` or ``ingredients``, as
        /// ``meal``. Absent for any other scan.
        public static let replacement = "x-kiwi-replacement"
        /// The gateway instance that started the scan (``ScanJob/gateway``); absent in a job of the release before.
        public static let gateway = "x-kiwi-gateway"
        /// `none` when the worker shows nothing of the answer before its result (``ScanJob/showsPartials``); absent
        /// otherwise, and in a job of the release before, whose workers show every fridge answer.
        public static let partials = "x-kiwi-partials"
    }

    /// The job's content type: the body is a JPEG, or several one after the other (``Header/photoSizes``), sealed.
    public static let contentType = "image/jpeg"
    /// The format every job is sent in (``Header/format``): the profile sealed, and always present.
    public static let currentFormat = "2"

    /// The job as a message, its photos and profile sealed under `key`, transient and expiring at the deadline so an
    /// unanswered job leaves the queue by itself. Consumed: the photos are held once in the clear, then once sealed.
    /// Throws ``ScanJobEncodingError`` rather than send a job without its profile, which a worker would not guard.
    public consuming func message(sealingWith key: PhotoKey, now: Date = Date()) throws(ScanJobEncodingError) -> AMQPMessage {
        var headers = [
            Header.scanID: scanID.uuidString.lowercased(),
            Header.deadline: String(Int64((deadline.timeIntervalSince1970 * 1000).rounded())),
            Header.userKey: userKey,
            Header.format: Self.currentFormat,
        ]
        headers[Header.requestID] = requestID
        headers[Header.gateway] = gateway
        if !showsPartials { headers[Header.partials] = "none" }
        headers[Header.profile] = try Self.sealed(profile ?? KitchenProfile(), .profile, "the profile", of: scanID, with: key)
        if let table { headers[Header.table] = try Self.sealed(table, .table, "the table", of: scanID, with: key) }
        if photos.count > 1 { headers[Header.photoSizes] = photos.map { String($0.count) }.joined(separator: ",") }
        if mode != .fridge { headers[Header.mode] = mode.rawValue }
        if let ingredients { headers[Header.ingredients] = try Self.json(ingredients, "the refinement's names") }
        if let pantry { headers[Header.pantry] = try Self.json(pantry, "the pantry's items") }
        if let plan { headers[Header.plan] = try Self.json(plan, "the plan's request") }
        if let meal { headers[Header.meal] = try Self.json(meal, "the meal's request") }
        if let replacement { headers[Header.replacement] = try Self.json(replacement, "the meal's replacement") }
        let remaining = max(deadline.timeIntervalSince(now), 0.001)
        var body = photos.count == 1 ? photos[0] : Array(photos.joined())
        photos = []
        if !body.isEmpty {
            do {
                body = try key.seal(body, for: scanID)
            } catch {
                throw ScanJobEncodingError("the photos could not be sealed: \(error)")
            }
        }
        return AMQPMessage(
            body: body,
            properties: AMQPProperties(
                contentType: Self.contentType,
                expiration: .milliseconds(Int64((remaining * 1000).rounded(.up))),
                persistent: false,
                headers: headers
            )
        )
    }

    /// `value` as JSON sealed as `part` under `key` for scan `scanID`, in base64: ``Header/profile``, ``Header/table``.
    private static func sealed(
        _ value: some Encodable,
        _ part: PhotoKey.Part,
        _ what: String,
        of scanID: UUID,
        with key: PhotoKey
    ) throws(ScanJobEncodingError) -> String {
        let json = try json(value, what)
        do {
            return Data(try key.seal(Array(json.utf8), for: scanID, part: part)).base64EncodedString()
        } catch {
            throw ScanJobEncodingError("\(what) could not be sealed: \(error)")
        }
    }

    private static func json(_ value: some Encodable, _ what: String) throws(ScanJobEncodingError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            // Not the encoder's error: it may quote the value, and a profile is health data that no log keeps.
            throw ScanJobEncodingError("\(what) could not be encoded")
        }
    }

    /// Reads a job from a consumed message whose photos were sealed under `key` (nil: sent in the clear, see
    /// ``SealedScanJob/opened(with:)``); for a worker, the two steps of ``SealedScanJob``.
    public init(message: AMQPMessage, key: PhotoKey?) throws(ScanJobDecodingError) {
        self = try SealedScanJob(message: message).opened(with: key)
    }
}

/// A job as a worker reads it before it claims its scan: every header checked, the photos still sealed, for the key
/// the claim returns (``ScanJob/message(sealingWith:now:)``).
public struct SealedScanJob: Sendable {
    /// The job without its photos, until ``opened(with:)``.
    public let job: ScanJob
    private let body: [UInt8]
    /// With several photos, their sizes in the clear (``ScanJob/Header/photoSizes``).
    private let photoSizes: [Int]?
    /// The profile as sealed in ``ScanJob/Header/profile`` (empty when the header is missing or not base64); nil in
    /// a job of the release before sealing profiles.
    private let sealedProfile: [UInt8]?
    /// The table as sealed in ``ScanJob/Header/table`` (empty when it is not base64); nil when the job has none.
    private let sealedTable: [UInt8]?

    /// Reads the job's headers. Throws when the message is not a job any worker could answer: it cannot be fixed by
    /// trying again, so it belongs in the dead-letter queue.
    public init(message: AMQPMessage) throws(ScanJobDecodingError) {
        typealias Header = ScanJob.Header
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
        var ingredients: [String]?
        var pantry: [OfferedPantryItem]?
        var photoSizes: [Int]?
        var plan: PlanRequest?
        var meal: MealRecipeRequest?
        var replacement: MealReplacement?
        if let json = properties.headers[Header.replacement] {
            guard let request = try? JSONDecoder().decode(MealReplacement.self, from: Data(json.utf8)), message.body.isEmpty,
                request.request.slots.count == 1, properties.headers[Header.plan] == nil, properties.headers[Header.ingredients] == nil,
                properties.headers[Header.pantry] == nil, properties.headers[Header.meal] == nil
            else {
                throw ScanJobDecodingError("the job's \(Header.replacement) header is not one meal's replacement, or it has photos or a plan too")
            }
            replacement = request
        } else if let json = properties.headers[Header.meal] {
            guard let request = try? JSONDecoder().decode(MealRecipeRequest.self, from: Data(json.utf8)), message.body.isEmpty,
                properties.headers[Header.plan] == nil, properties.headers[Header.ingredients] == nil, properties.headers[Header.pantry] == nil
            else {
                throw ScanJobDecodingError("the job's \(Header.meal) header is not a meal's request, or it has photos or a plan too")
            }
            meal = request
        } else if let json = properties.headers[Header.plan] {
            guard let request = try? JSONDecoder().decode(PlanRequest.self, from: Data(json.utf8)), (1...PlanRequest.mostDays).contains(request.days),
                (1...MealTime.allCases.count).contains(request.meals.count), Set(request.meals).count == request.meals.count
            else {
                throw ScanJobDecodingError("the job's \(Header.plan) header is not a plan's request")
            }
            plan = request
        }
        if plan != nil {
            // A plan's pantry may be empty: it plans meals to buy for.
            guard message.body.isEmpty, let json = properties.headers[Header.pantry],
                let items = try? JSONDecoder().decode([OfferedPantryItem].self, from: Data(json.utf8))
            else {
                throw ScanJobDecodingError("a plan's job carries its pantry's items in \(Header.pantry), and no photos")
            }
            pantry = items
        } else if let json = properties.headers[Header.ingredients] {
            guard let names = try? JSONDecoder().decode([String].self, from: Data(json.utf8)), !names.isEmpty, message.body.isEmpty else {
                throw ScanJobDecodingError("the job's \(Header.ingredients) header is not a list of names, or it has photos too")
            }
            ingredients = names
            if let json = properties.headers[Header.pantry] {
                guard let items = try? JSONDecoder().decode([OfferedPantryItem].self, from: Data(json.utf8)), items.map(\.name) == names else {
                    throw ScanJobDecodingError("the job's \(Header.pantry) header is not a list of its pantry items")
                }
                pantry = items
            }
        } else if let sizes = properties.headers[Header.photoSizes] {
            // Each size is bounded before they are summed (when the body is opened): a header is untrusted input.
            let counts = sizes.split(separator: ",").compactMap { Int($0) }
            guard counts.count == sizes.split(separator: ",").count, (1...ScanPhoto.maximumCount).contains(counts.count),
                counts.allSatisfy({ (1...ScanPhoto.maximumSize).contains($0) })
            else {
                throw ScanJobDecodingError("the job's \(Header.photoSizes) header does not list photo sizes")
            }
            photoSizes = counts
        }
        var mode = ScanMode.fridge
        if let name = properties.headers[Header.mode] {
            guard let named = ScanMode(rawValue: name) else { throw ScanJobDecodingError("the job's \(Header.mode) header names no scan mode") }
            mode = named
        }
        var profile: KitchenProfile?
        var sealedProfile: [UInt8]?
        switch properties.headers[Header.format] {
        case nil:
            // A gateway of the release before sealing profiles: the profile in the clear, or none.
            if let json = properties.headers[Header.profile] {
                guard let decoded = try? JSONDecoder().decode(KitchenProfile.self, from: Data(json.utf8)) else {
                    throw ScanJobDecodingError("the job's \(Header.profile) header is not a profile")
                }
                profile = decoded
            }
        case ScanJob.currentFormat:
            // Opened with the scan's key once it is claimed; a missing or broken profile fails the scan then.
            sealedProfile = properties.headers[Header.profile].flatMap { Data(base64Encoded: $0) }.map { Array($0) } ?? []
        case let format?:
            throw ScanJobDecodingError("the job's format \(format) is not one this worker reads")
        }
        job = ScanJob(
            scanID: scanID,
            photos: [],
            mode: mode,
            deadline: Date(timeIntervalSince1970: Double(deadline) / 1000),
            requestID: properties.headers[Header.requestID],
            userKey: userKey,
            profile: profile,
            ingredients: ingredients,
            pantry: pantry,
            plan: plan,
            meal: meal,
            replacement: replacement,
            // A name that is not a gateway's cannot be routed: the news then goes to every gateway.
            gateway: properties.headers[Header.gateway].flatMap { KiwiTopology.isGatewayName($0) ? $0 : nil },
            showsPartials: properties.headers[Header.partials] != "none"
        )
        body = message.body
        self.photoSizes = photoSizes
        self.sealedProfile = sealedProfile
        sealedTable = properties.headers[Header.table].map { Array(Data(base64Encoded: $0) ?? Data()) }
    }

    /// The job with its profile and photos, opened with its scan's `key`. A text-only scan has no photos to open. Nil
    /// `key`: the photos are in the clear, as a gateway of the release before sealing sent them (its scans have no
    /// key). Throws when the profile or the body does not open with `key` (``PhotoKey/open(_:for:part:)``), the
    /// profile is not one, or the photos are not the sizes the job lists: the scan then fails, never runs unguarded.
    public consuming func opened(with key: PhotoKey?) throws(ScanJobDecodingError) -> ScanJob {
        var job = self.job
        if let sealedProfile {
            guard let key else { throw ScanJobDecodingError("the job's profile is sealed, and its scan has no key") }
            let json: [UInt8]
            do {
                json = try key.open(sealedProfile, for: job.scanID, part: .profile)
            } catch {
                throw ScanJobDecodingError("the job's profile \(error)")
            }
            guard let profile = try? JSONDecoder().decode(KitchenProfile.self, from: Data(json)) else {
                throw ScanJobDecodingError("the job's sealed profile is not a profile")
            }
            job.profile = profile.asksNothingOfAnswers ? nil : profile
        }
        if let sealedTable {
            guard let key else { throw ScanJobDecodingError("the job's table is sealed, and its scan has no key") }
            let json: [UInt8]
            do {
                json = try key.open(sealedTable, for: job.scanID, part: .table)
            } catch {
                throw ScanJobDecodingError("the job's table \(error)")
            }
            guard let table = try? JSONDecoder().decode([TableSeat].self, from: Data(json)) else {
                throw ScanJobDecodingError("the job's sealed table is not a list of seats")
            }
            job.table = table
        }
        guard job.ingredients == nil, job.plan == nil, job.meal == nil, job.replacement == nil else { return job }
        var photos = body
        if let key {
            do {
                photos = try key.open(photos, for: job.scanID)
            } catch {
                throw ScanJobDecodingError("the job's body \(error)")
            }
        }
        guard let sizes = photoSizes else {
            job.photos = [photos]
            return job
        }
        guard sizes.reduce(0, +) == photos.count else {
            throw ScanJobDecodingError("the job's \(ScanJob.Header.photoSizes) header does not divide its photos")
        }
        var start = 0
        job.photos = sizes.map { count in
            defer { start += count }
            return Array(photos[start..<start + count])
        }
        return job
    }
}
