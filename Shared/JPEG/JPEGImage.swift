import Foundation

/// A JPEG file split into its marker segments and its entropy-coded data, enough to check that bytes are a
/// well-formed JPEG and to drop metadata without decoding or re-encoding a single pixel.
///
/// Cameras put EXIF (with GPS), XMP, ICC profiles and comments into marker segments, mostly before the first
/// scan; progressive files may carry segments between their scans too. Every segment is parsed by its length,
/// wherever it is, and the entropy-coded data after each start-of-scan header is skipped by its own rules
/// (`FF 00` is a stuffed byte, `FF D0`–`FF D7` restart markers), so marker-like bytes inside a segment or a scan
/// are never mistaken for markers. Bytes after the end-of-image marker (some phones append a video or a second
/// picture there) are never kept.
public struct JPEGImage: Sendable {
    /// One marker segment: its marker byte (the `xx` of `FF xx`) and where it lies in ``bytes``.
    public struct Segment: Sendable, Hashable {
        public let marker: UInt8
        /// From the `FF` of the marker to the segment's last byte.
        public let range: Range<Int>

        /// `APP1`, `COM`, `SOF0`, … for reports and logs.
        public var name: String {
            switch marker {
            case 0xE0...0xEF: "APP\(marker - 0xE0)"
            case 0xFE: "COM"
            case 0xC4: "DHT"
            case 0xC8: "JPG"
            case 0xCC: "DAC"
            case 0xC0...0xCF: "SOF\(marker - 0xC0)"
            case 0xDA: "SOS"
            case 0xDB: "DQT"
            case 0xDD: "DRI"
            default: "FF" + String(marker, radix: 16, uppercase: true)
            }
        }

        /// APP1…APP15 (EXIF, XMP, ICC, Photoshop IRB, maker data, …) and COM: the segments that carry metadata.
        /// APP0 stays: it is the JFIF header (version, pixel density), which says nothing about who took the photo.
        public var isMetadata: Bool { (0xE1...0xEF).contains(marker) || marker == 0xFE }
    }

    /// Coding processes every common decoder (and OpenAI) reads: baseline, extended and progressive Huffman.
    static let supportedFrames: Set<UInt8> = [0xC0, 0xC1, 0xC2]

    /// The original bytes.
    public let bytes: [UInt8]
    /// The segments before the first start-of-scan, in file order (SOI excluded).
    public let headerSegments: [Segment]
    /// Every metadata segment of the file, before the first scan or between scans.
    public let metadataSegments: [Segment]
    /// Where the first start-of-scan (`FF DA`) marker begins.
    public let scanStart: Int
    /// Just past the end-of-image (`FF D9`) marker.
    public let end: Int
    /// The frame size from the start-of-frame segment.
    public let width: Int
    public let height: Int
    /// The parts of ``bytes`` that are kept when stripping metadata, in order.
    private let keptRanges: [Range<Int>]

    /// Parses `bytes`, throwing when they are not a well-formed JPEG: a start-of-image marker, segments whose
    /// lengths fit, one supported start-of-frame before the first scan, and an end-of-image marker after it.
    public init(parsing bytes: [UInt8]) throws(JPEGFormatError) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw JPEGFormatError("the data does not start with the JPEG start-of-image marker FF D8")
        }
        var header: [Segment] = []
        var metadata: [Segment] = []
        var kept: [Range<Int>] = [0..<2]
        var frame: (width: Int, height: Int)?
        var firstScan: Int?
        var offset = 2
        while true {
            guard offset + 1 < bytes.count, bytes[offset] == 0xFF else {
                throw JPEGFormatError(
                    firstScan == nil
                        ? "expected a marker at byte \(offset), found none before the image data"
                        : "the image data has no end-of-image marker FF D9"
                )
            }
            var markerOffset = offset + 1
            while markerOffset < bytes.count, bytes[markerOffset] == 0xFF { markerOffset += 1 }  // fill bytes
            guard markerOffset < bytes.count else { throw JPEGFormatError("the file ends inside a marker") }
            let marker = bytes[markerOffset]
            if marker == 0xD9 {
                guard firstScan != nil else { throw JPEGFormatError("the file ends (FF D9) before any image data") }
                kept.append(offset..<markerOffset + 1)
                end = markerOffset + 1
                break
            }
            guard marker != 0x00, marker != 0xD8, marker != 0x01, !(0xD0...0xD7).contains(marker) else {
                throw JPEGFormatError("unexpected marker FF \(String(marker, radix: 16, uppercase: true)) at byte \(offset)")
            }
            guard markerOffset + 2 < bytes.count else { throw JPEGFormatError("the file ends inside a segment length") }
            let length = Int(bytes[markerOffset + 1]) << 8 | Int(bytes[markerOffset + 2])
            var segmentEnd = markerOffset + 1 + length
            guard length >= 2, segmentEnd <= bytes.count else {
                throw JPEGFormatError("a segment at byte \(offset) claims \(length) bytes, more than the file holds")
            }
            let segment = Segment(marker: marker, range: offset..<segmentEnd)
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard Self.supportedFrames.contains(marker) else {
                    throw JPEGFormatError("the image uses an unsupported JPEG coding process (\(segment.name)); baseline or progressive only")
                }
                guard frame == nil else { throw JPEGFormatError("the file has more than one start-of-frame segment") }
                guard length >= 8 else { throw JPEGFormatError("the start-of-frame segment is too short") }
                let height = Int(bytes[markerOffset + 4]) << 8 | Int(bytes[markerOffset + 5])
                let width = Int(bytes[markerOffset + 6]) << 8 | Int(bytes[markerOffset + 7])
                guard width > 0, height > 0 else { throw JPEGFormatError("the frame has no pixels (\(width)×\(height))") }
                frame = (width, height)
            case 0xDA:
                guard frame != nil else { throw JPEGFormatError("the image data starts before any start-of-frame segment") }
                if firstScan == nil { firstScan = offset }
                segmentEnd = try Self.endOfEntropyCodedData(in: bytes, from: segmentEnd)
            default:
                break
            }
            if firstScan == nil { header.append(segment) }
            if segment.isMetadata {
                metadata.append(segment)
            } else {
                kept.append(offset..<segmentEnd)
            }
            offset = segmentEnd
        }
        self.bytes = bytes
        headerSegments = header
        metadataSegments = metadata
        keptRanges = kept
        scanStart = firstScan!
        (width, height) = frame!
    }

    /// The same image without metadata segments and without anything after the end-of-image marker. Everything
    /// else is the original bytes in their order: with metadata only before the first scan (as cameras write it),
    /// the bytes from the first start-of-scan marker to the end-of-image marker are untouched.
    public func strippingMetadata() -> [UInt8] {
        // Nothing to strip (most uploads, once the app has cleaned them): the same bytes, shared rather than copied.
        if keptRanges.reduce(0, { $0 + $1.count }) == bytes.count { return bytes }
        var stripped: [UInt8] = []
        stripped.reserveCapacity(end)
        for range in keptRanges { stripped.append(contentsOf: bytes[range]) }
        return stripped
    }

    /// Where the entropy-coded data that starts at `start` ends: at the first marker that is neither a stuffed
    /// byte (`FF 00`) nor a restart marker (`FF D0`–`FF D7`).
    /// Candidates (`FF` bytes) are found with `memchr`, which skips the plain data many bytes at a time.
    private static func endOfEntropyCodedData(in bytes: [UInt8], from start: Int) throws(JPEGFormatError) -> Int {
        let end: Int? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var index = start
            while index + 1 < buffer.count {
                guard let found = memchr(base + index, 0xFF, buffer.count - 1 - index) else { return nil }
                index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                let next = buffer[index + 1]
                if next == 0x00 || (0xD0...0xD7).contains(next) {
                    index += 2
                } else if next == 0xFF {
                    index += 1
                } else {
                    return index
                }
            }
            return nil
        }
        guard let end else { throw JPEGFormatError("the image data has no end-of-image marker FF D9") }
        return end
    }
}

/// Bytes that are not a well-formed JPEG, and why.
public struct JPEGFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
