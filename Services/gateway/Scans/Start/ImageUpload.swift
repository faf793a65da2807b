import Crypto
import Foundation
import Hummingbird
import KiwiConcurrency
import KiwiModels
import KiwiServiceSupport
import NIOCore

/// What a scan upload carries: its photos, in the order they were sent, and what they show.
struct ScanUpload: Sendable {
    var photos: [[UInt8]]
    var mode: ScanMode

    /// What an `Idempotency-Key` is checked against (the scan's `photo_sha256`): the SHA-256 of the photo for one
    /// fridge photo, the digest single-photo scans are recorded with in existing ledgers; otherwise the SHA-256 of the mode and each photo's SHA-256.
    var digest: Data {
        guard photos.count > 1 || mode != .fridge else { return Data(SHA256.hash(data: photos[0])) }
        var hasher = SHA256()
        hasher.update(data: Data(mode.rawValue.utf8))
        for photo in photos { hasher.update(data: Data(SHA256.hash(data: photo))) }
        return Data(hasher.finalize())
    }
}

/// The photos of a `POST /v1/scan` or `POST /v1/scans`: `multipart/form-data` with the field `image` once or up to
/// ``ScanPhoto/maximumCount`` times, each a JPEG of 1 byte to 2 MiB starting `FF D8 FF`, at most 8 MiB together
/// (docs/architecture.md, "2. The scan data flow", step 4); and an optional field `mode`, `fridge` (the default) or `dish`. A photo's refusal is 400
/// `invalid_image` with a message naming the rule and, among several, the photo; a bad `mode` is 400 `bad_request`.
enum ImageUpload {
    /// Room for the multipart envelopes around the largest photos. A body beyond it is refused as soon as the bytes
    /// streaming in pass this size; no more of it is read.
    static let largestBody = ScanPhoto.maximumTotalSize + 64 * 1024
    /// The longest an upload may take: one 2 MiB photo in 30 s is 70 KB/s, slower than any phone on a working network;
    /// the full 8 MiB of five photos needs 280 KB/s.
    static let uploadTimeout = Duration.seconds(30)

    /// Reads and checks the photos of `request`, and its mode.
    static func read(from request: Request, context: some RequestContext) async throws -> ScanUpload {
        guard let contentType = request.headers[.contentType], let boundary = MultipartFormData.boundary(inContentType: contentType) else {
            throw refusal("The request must be multipart/form-data (with a boundary) carrying the photo in a field named 'image'.")
        }
        // A declared length over the limit is refused before any of the body is read (curl's `Expect: 100-continue`
        // then never sends it); an undeclared one when the bytes streaming in pass the limit.
        if let length = request.headers[.contentLength].flatMap(Int.init), length > largestBody { throw tooLarge }
        // The collected buffer is copied into an array once and let go, so an upload holds its bytes at most twice.
        let bytes: [UInt8]
        do {
            bytes = Array(
                try await withDeadline(.now + uploadTimeout) { try await request.body.collect(upTo: largestBody) }.readableBytesView
            )
        } catch is NIOTooManyBytesError {
            throw tooLarge
        } catch is DeadlineExceededError {
            throw APIError(.requestTimeout, .badRequest, "The upload took longer than \(uploadTimeout.components.seconds) seconds.")
        }
        let parts: [MultipartFormData.Part]
        do {
            parts = try MultipartFormData.parts(of: bytes, boundary: boundary)
        } catch {
            throw refusal("The multipart body is malformed: \(error.reason).")
        }
        let images = parts.filter { $0.name == "image" }
        guard !images.isEmpty else { throw refusal("The request has no field named 'image'.") }
        guard images.count <= ScanPhoto.maximumCount else {
            throw refusal("A scan takes at most \(ScanPhoto.maximumCount) photos; this request has \(images.count).")
        }
        var photos: [[UInt8]] = []
        for (index, image) in images.enumerated() {
            let label = images.count == 1 ? "The photo" : "Photo \(index + 1)"
            if let type = image.contentType, type.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() != "image/jpeg" {
                throw refusal(images.count == 1 ? "The 'image' field must be image/jpeg, not \(type)." : "\(label) must be image/jpeg, not \(type).")
            }
            photos.append(try check(Array(image.body), label: label))
        }
        let total = photos.reduce(0) { $0 + $1.count }
        guard total <= ScanPhoto.maximumTotalSize else { throw refusal("The photos must be at most 8 MiB together; these are \(total) bytes.") }
        return ScanUpload(photos: photos, mode: try mode(of: parts))
    }

    /// The rules for the bytes of one photo, called `label` in a refusal.
    static func check(_ image: [UInt8], label: String = "The photo") throws -> [UInt8] {
        guard !image.isEmpty else { throw refusal("\(label) is empty.") }
        guard image.count <= ScanPhoto.maximumSize else { throw refusal("\(label) must be at most 2 MiB; it is \(image.count) bytes.") }
        guard ScanPhoto.startsLikeJPEG(image) else { throw refusal("\(label) must be a JPEG (starting with FF D8 FF).") }
        return image
    }

    /// The form field `mode`: `fridge` when there is none.
    private static func mode(of parts: [MultipartFormData.Part]) throws -> ScanMode {
        let fields = parts.filter { $0.name == "mode" }
        guard let field = fields.first else { return .fridge }
        let value = String(decoding: field.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard fields.count == 1, let mode = ScanMode(rawValue: value) else {
            throw APIError.badRequest("The field 'mode' must be given once, as fridge or dish.")
        }
        return mode
    }

    private static var tooLarge: APIError {
        refusal("The photos must be at most 2 MiB each and 8 MiB together; this upload is larger. Send smaller or more compressed JPEGs.")
    }

    private static func refusal(_ message: String) -> APIError {
        APIError(.badRequest, .invalidImage, message)
    }
}

/// A minimal `multipart/form-data` reader (RFC 7578) over a body already in memory.
enum MultipartFormData {
    struct Part {
        var name: String?
        var contentType: String?
        var body: ArraySlice<UInt8>
    }

    struct FormatError: Error {
        let reason: String
    }

    /// The boundary parameter of a `multipart/form-data` content type.
    static func boundary(inContentType contentType: String) -> String? {
        let parameters = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parameters.first?.lowercased() == "multipart/form-data" else { return nil }
        for parameter in parameters.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return (1...70).contains(value.utf8.count) ? value : nil
        }
        return nil
    }

    static func parts(of body: [UInt8], boundary: String) throws(FormatError) -> [Part] {
        let delimiter = Array("--\(boundary)".utf8)
        let crlf: [UInt8] = [13, 10]
        guard var cursor = body.range(of: delimiter, from: 0)?.upperBound else { throw FormatError(reason: "no boundary line") }
        let separator = crlf + delimiter
        var parts: [Part] = []
        while true {
            if body[cursor...].starts(with: [45, 45]) { return parts }  // "--": the closing delimiter
            // Transport padding, then the line break that ends the boundary line.
            while cursor < body.count, body[cursor] == 32 || body[cursor] == 9 { cursor += 1 }
            guard body[cursor...].starts(with: crlf) else { throw FormatError(reason: "a boundary line does not end with CRLF") }
            cursor += 2
            // The headers end at an empty line; a part without headers starts with it.
            guard let headerEnd = body[cursor...].starts(with: crlf) ? cursor..<cursor + 2 : body.range(of: crlf + crlf, from: cursor) else {
                throw FormatError(reason: "a part's headers never end")
            }
            var part = Part(body: [])
            for line in String(decoding: body[cursor..<headerEnd.lowerBound], as: UTF8.self).components(separatedBy: "\r\n") where !line.isEmpty {
                let field = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard field.count == 2 else { throw FormatError(reason: "a part header has no colon") }
                switch field[0].lowercased() {
                case "content-disposition":
                    guard field[1].split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() == "form-data" else {
                        throw FormatError(reason: "a part's Content-Disposition is not form-data")
                    }
                    part.name = parameter("name", in: field[1])
                case "content-type":
                    part.contentType = field[1]
                default:
                    break
                }
            }
            guard let end = body.range(of: separator, from: headerEnd.upperBound) else {
                throw FormatError(reason: "a part is not closed by a boundary")
            }
            part.body = body[headerEnd.upperBound..<end.lowerBound]
            parts.append(part)
            cursor = end.upperBound
        }
    }

    /// `name="image"` (or unquoted) from a Content-Disposition value.
    private static func parameter(_ name: String, in value: String) -> String? {
        for item in value.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == name else { continue }
            return pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
        }
        return nil
    }
}

extension [UInt8] {
    /// Where `pattern` first occurs at or after `start`, found with `memchr` and `memcmp`: the generic `firstRange(of:)`
    /// walks a 2 MiB photo byte by byte through protocol witnesses, at tens of milliseconds of CPU a scan.
    fileprivate func range(of pattern: [UInt8], from start: Int) -> Range<Int>? {
        guard let first = pattern.first, start >= 0, count - start >= pattern.count else { return nil }
        return withUnsafeBytes { haystack in
            pattern.withUnsafeBytes { needle in
                guard let base = haystack.baseAddress else { return nil }
                let lastStart = haystack.count - needle.count
                var offset = start
                while offset <= lastStart, let hit = memchr(base + offset, Int32(first), lastStart - offset + 1) {
                    let index = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + index, needle.baseAddress!, needle.count) == 0 { return index..<(index + needle.count) }
                    offset = index + 1
                }
                return nil
            }
        }
    }
}
