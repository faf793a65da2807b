import KiwiDevelopment
import KiwiJPEG
import KiwiTestSupport
import Testing

@Suite("JPEG structure and metadata stripping")
struct JPEGImageTests {
    let photo = SyntheticJPEG.make(size: 8 * 1024, seed: 1)

    @Test("a generated JPEG parses, with its frame size")
    func generatedJPEGParses() throws {
        let image = try JPEGImage(parsing: photo)
        #expect(image.width == 256)
        #expect(image.height > 0 && image.height % 8 == 0)
        #expect(image.end == photo.count)
        #expect(image.metadataSegments.isEmpty)
    }

    @Test("generated JPEGs reach the requested size, and the same seed gives the same bytes")
    func generatedJPEGSizeAndDeterminism() {
        let big = SyntheticJPEG.make(size: 256 * 1024, seed: 7)
        #expect(big.count >= 256 * 1024 && big.count < 256 * 1024 + 4096)
        #expect(big == SyntheticJPEG.make(size: 256 * 1024, seed: 7))
        #expect(big != SyntheticJPEG.make(size: 256 * 1024, seed: 8))
    }

    @Test("EXIF with GPS, XMP, ICC, Photoshop and comment segments are found and all stripped")
    func metadataIsStripped() throws {
        let tagged = JPEGFixtures.withMetadata(photo)
        let image = try JPEGImage(parsing: tagged)
        #expect(image.metadataSegments.map(\.name) == ["APP1", "APP1", "APP2", "APP13", "COM"])
        let stripped = try JPEGImage(parsing: image.strippingMetadata())
        #expect(stripped.metadataSegments.isEmpty)
        #expect(stripped.headerSegments.map(\.name) == ["APP0", "DQT", "SOF0", "DHT", "DHT"])
    }

    @Test("everything from the start-of-scan marker on is byte-identical after stripping")
    func scanDataIsUntouched() throws {
        let image = try JPEGImage(parsing: JPEGFixtures.withMetadata(photo))
        let stripped = try JPEGImage(parsing: image.strippingMetadata())
        #expect(Array(stripped.bytes[stripped.scanStart...]) == Array(image.bytes[image.scanStart..<image.end]))
        #expect(stripped.bytes == photo)
    }

    @Test("bytes appended after the end-of-image marker are dropped")
    func trailingDataIsDropped() throws {
        let image = try JPEGImage(parsing: photo + Array("ftypmp42 motion photo".utf8))
        #expect(image.strippingMetadata() == photo)
    }

    @Test("fill bytes before a marker are accepted")
    func fillBytesAreAccepted() throws {
        let padded = Array(photo[..<2]) + [0xFF, 0xFF] + Array(photo[2...])
        #expect(throws: Never.self) { try JPEGImage(parsing: padded) }
    }

    @Test(
        "bytes that are not a well-formed JPEG are refused with the reason",
        arguments: [
            ("PNG", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "start-of-image"),
            ("empty", [], "start-of-image"),
            ("only the magic bytes", [0xFF, 0xD8, 0xFF], "start-of-image"),
            ("end before any image", [0xFF, 0xD8, 0xFF, 0xD9], "before any image data"),
            ("a segment longer than the file", [0xFF, 0xD8, 0xFF, 0xE1, 0x10, 0x00, 0x01], "more than the file holds"),
        ] as [(String, [UInt8], String)]
    )
    func malformedBytesAreRefused(_ name: String, _ bytes: [UInt8], _ reason: String) {
        #expect { try JPEGImage(parsing: bytes) } throws: { error in
            (error as? JPEGFormatError)?.reason.contains(reason) == true
        }
    }

    @Test("a JPEG cut off inside its image data has no end-of-image marker and is refused")
    func truncatedJPEGIsRefused() {
        #expect { try JPEGImage(parsing: Array(photo.prefix(photo.count - 100))) } throws: { error in
            (error as? JPEGFormatError)?.reason.contains("end-of-image") == true
        }
    }

    @Test("image data before any start-of-frame segment is refused")
    func scanWithoutFrameIsRefused() throws {
        let image = try JPEGImage(parsing: photo)
        let withoutFrame =
            [0xFF, 0xD8] + image.headerSegments.filter { $0.name != "SOF0" }.flatMap { Array(photo[$0.range]) }
            + Array(photo[image.scanStart...])
        #expect { try JPEGImage(parsing: withoutFrame) } throws: { error in
            (error as? JPEGFormatError)?.reason.contains("start-of-frame") == true
        }
    }

    /// A COM segment holding `payload`.
    func comment(_ payload: [UInt8]) -> [UInt8] {
        [0xFF, 0xFE, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
    }

    @Test("a metadata segment between scans is found and stripped, and bytes like FF D9 inside it end nothing")
    func metadataBetweenScansIsStripped() throws {
        let between = Array(photo.dropLast(2)) + comment([0xFF, 0xD9, 0x41]) + [0xFF, 0xD9]
        let image = try JPEGImage(parsing: between)
        #expect(image.metadataSegments.map(\.name) == ["COM"])
        #expect(image.end == between.count)
        #expect(image.strippingMetadata() == photo)
    }

    @Test("restart markers and stuffed bytes inside the image data are not taken for segments")
    func restartMarkersAreData() throws {
        let image = try JPEGImage(parsing: photo)
        let withRestart = Array(photo[..<(image.scanStart + 10)]) + [0xFF, 0xD0] + Array(photo[(image.scanStart + 10)...])
        #expect(try JPEGImage(parsing: withRestart).strippingMetadata() == withRestart)
    }

    @Test("a coding process most decoders cannot read (lossless, hierarchical, arithmetic) is refused", arguments: [0xC3, 0xC5, 0xC9] as [UInt8])
    func unsupportedFrameIsRefused(_ marker: UInt8) throws {
        let image = try JPEGImage(parsing: photo)
        let frame = try #require(image.headerSegments.first { $0.name == "SOF0" })
        var changed = photo
        changed[frame.range.lowerBound + 1] = marker
        #expect { try JPEGImage(parsing: changed) } throws: { error in
            (error as? JPEGFormatError)?.reason.contains("unsupported JPEG coding process") == true
        }
    }

    @Test("a progressive frame (SOF2) is accepted")
    func progressiveFrameIsAccepted() throws {
        let image = try JPEGImage(parsing: photo)
        let frame = try #require(image.headerSegments.first { $0.name == "SOF0" })
        var progressive = photo
        progressive[frame.range.lowerBound + 1] = 0xC2
        #expect(try JPEGImage(parsing: progressive).headerSegments.map(\.name).contains("SOF2"))
    }
}
