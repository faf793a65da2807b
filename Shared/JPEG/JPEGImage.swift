/// A JPEG file split into its header segments and its scan data, enough to check that bytes are a
/// well-formed JPEG and to drop metadata without decoding or re-encoding a single pixel.
///
/// The header (everything before the first start-of-scan marker) is a run of marker segments; that is where
/// cameras put EXIF (with GPS), XMP, ICC profiles and comments. Everything from the first start-of-scan
/// marker up to the end-of-image marker — the compressed pixels, and for progressive files the later scans
/// with their tables — is kept byte for byte. Bytes after the end-of-image marker (some phones append a
/// video or a second picture there) are never kept.
public struct JPEGImage: Sendable {
    /// One marker segment of the header: its marker byte (the `xx` of `FF xx`) and where it lies in ``bytes``.
    public struct Segment: Sendable, Hashable {
        public let marker: UInt8
        /// From the `FF` of the marker to the segment's last byte.
        public let range: Range<Int>

        /// `APP1`, `COM`, `SOF0`, … for reports and logs.
        public var name: String {
            switch marker {
            case 0xE0...0xEF: "APP\(marker - 0xE0)"
            case 0xFE: "COM"
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC: "SOF\(marker - 0xC0)"
            case 0xC4: "DHT"
            case 0xDB: "DQT"
            case 0xDD: "DRI"
            default: "FF" + String(marker, radix: 16, uppercase: true)
            }
        }

        /// APP1…APP15 (EXIF, XMP, ICC, Photoshop IRB, maker data, …) and COM: the segments that carry metadata.
        /// APP0 stays: it is the JFIF header (version, pixel density), which says nothing about who took the photo.
        public var isMetadata: Bool { (0xE1...0xEF).contains(marker) || marker == 0xFE }
    }

    /// The original bytes.
    public let bytes: [UInt8]
    /// The header segments, in file order (SOI excluded).
    public let headerSegments: [Segment]
    /// Where the first start-of-scan (`FF DA`) marker begins.
    public let scanStart: Int
    /// Just past the end-of-image (`FF D9`) marker.
    public let end: Int
    /// The frame size from the start-of-frame segment.
    public let width: Int
    public let height: Int

    /// Parses `bytes`, throwing when they are not a well-formed JPEG: a start-of-image marker, header segments
    /// whose lengths fit, a start-of-frame before the first scan, and an end-of-image marker after it.
    public init(parsing bytes: [UInt8]) throws(JPEGFormatError) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw JPEGFormatError("the data does not start with the JPEG start-of-image marker FF D8")
        }
        var segments: [Segment] = []
        var frame: (width: Int, height: Int)?
        var offset = 2
        while true {
            guard offset + 1 < bytes.count, bytes[offset] == 0xFF else {
                throw JPEGFormatError("expected a marker at byte \(offset), found none before the image data")
            }
            var markerOffset = offset + 1
            while markerOffset < bytes.count, bytes[markerOffset] == 0xFF { markerOffset += 1 }  // fill bytes
            guard markerOffset < bytes.count else { throw JPEGFormatError("the file ends inside a marker") }
            let marker = bytes[markerOffset]
            if marker == 0xDA {
                guard frame != nil else { throw JPEGFormatError("the image data starts before any start-of-frame segment") }
                scanStart = offset
                break
            }
            guard marker != 0xD9 else { throw JPEGFormatError("the file ends (FF D9) before any image data") }
            guard marker != 0x00, marker != 0xD8, !(0xD0...0xD7).contains(marker), marker != 0x01 else {
                throw JPEGFormatError("unexpected marker FF \(String(marker, radix: 16, uppercase: true)) in the header")
            }
            guard markerOffset + 2 < bytes.count else { throw JPEGFormatError("the file ends inside a segment length") }
            let length = Int(bytes[markerOffset + 1]) << 8 | Int(bytes[markerOffset + 2])
            let segmentEnd = markerOffset + 1 + length
            guard length >= 2, segmentEnd <= bytes.count else {
                throw JPEGFormatError("a segment at byte \(offset) claims \(length) bytes, more than the file holds")
            }
            let segment = Segment(marker: marker, range: offset..<segmentEnd)
            if segment.name.hasPrefix("SOF") {
                guard length >= 8 else { throw JPEGFormatError("the start-of-frame segment is too short") }
                let height = Int(bytes[markerOffset + 4]) << 8 | Int(bytes[markerOffset + 5])
                let width = Int(bytes[markerOffset + 6]) << 8 | Int(bytes[markerOffset + 7])
                guard width > 0, height > 0 else { throw JPEGFormatError("the frame has no pixels (\(width)×\(height))") }
                frame = (width, height)
            }
            segments.append(segment)
            offset = segmentEnd
        }
        guard let end = Self.endOfImage(in: bytes, after: scanStart) else {
            throw JPEGFormatError("the image data has no end-of-image marker FF D9")
        }
        self.bytes = bytes
        self.headerSegments = segments
        self.end = end
        (width, height) = frame!
    }

    /// Header segments that carry metadata (see ``Segment/isMetadata``).
    public var metadataSegments: [Segment] { headerSegments.filter(\.isMetadata) }

    /// The same image without metadata segments and without anything after the end-of-image marker:
    /// the start-of-image marker, the remaining header segments, then the original bytes from the first
    /// start-of-scan marker to the end-of-image marker, untouched.
    public func strippingMetadata() -> [UInt8] {
        var stripped: [UInt8] = [0xFF, 0xD8]
        stripped.reserveCapacity(end)
        for segment in headerSegments where !segment.isMetadata {
            stripped.append(contentsOf: bytes[segment.range])
        }
        stripped.append(contentsOf: bytes[scanStart..<end])
        return stripped
    }

    /// Entropy-coded data never contains `FF D9`: a literal `FF` is stuffed as `FF 00` and restart markers are
    /// `FF D0`–`FF D7`. So the first `FF D9` after the first scan header ends the image (progressive files too).
    private static func endOfImage(in bytes: [UInt8], after start: Int) -> Int? {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == 0xFF, bytes[index + 1] == 0xD9 { return index + 2 }
            index += 1
        }
        return nil
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
