import KiwiJPEG

/// Photos as phones write them: a JPEG carrying the metadata Kiwi must never pass on.
public enum JPEGFixtures {
    /// Where the EXIF GPS block of ``withMetadata(_:)`` says the photo was taken: 52°31'12" N, 13°24'36" E.
    public static let gpsLatitude: [UInt32] = [52, 31, 12]
    public static let gpsLongitude: [UInt32] = [13, 24, 36]

    /// `jpeg` with, right after its start-of-image marker, an EXIF block with GPS coordinates (APP1), an XMP
    /// packet with the same location (APP1), an ICC profile (APP2), a Photoshop block (APP13) and a comment (COM).
    public static func withMetadata(_ jpeg: [UInt8]) -> [UInt8] {
        let metadata =
            segment(0xE1, Array("Exif".utf8) + [0, 0] + exifWithGPS())
            + segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8))
            + segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1] + Array(repeating: 0x42, count: 128))
            + segment(0xED, Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 0])
            + segment(0xFE, Array("Taken at 221B Baker Street by jane@example.com".utf8))
        return Array(jpeg[..<2]) + metadata + Array(jpeg[2...])
    }

    private static let xmp = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="52,31.2N" exif:GPSLongitude="13,24.6E"/>\
        </rdf:RDF></x:xmpmeta>
        """

    /// A little-endian TIFF structure: IFD0 holding only a pointer to a GPS IFD with latitude and longitude.
    private static func exifWithGPS() -> [UInt8] {
        var tiff: [UInt8] = Array("II".utf8) + le16(42) + le32(8)
        // IFD0 at 8: one entry (GPSInfo → 26), then no next IFD.
        tiff += le16(1) + le16(0x8825) + le16(4) + le32(1) + le32(26) + le32(0)
        // GPS IFD at 26: four entries, the rationals stored after it at 80 and 104.
        tiff += le16(4)
        tiff += le16(0x0001) + le16(2) + le32(2) + Array("N".utf8) + [0, 0, 0]
        tiff += le16(0x0002) + le16(5) + le32(3) + le32(80)
        tiff += le16(0x0003) + le16(2) + le32(2) + Array("E".utf8) + [0, 0, 0]
        tiff += le16(0x0004) + le16(5) + le32(3) + le32(104)
        tiff += le32(0)
        for value in gpsLatitude + gpsLongitude { tiff += le32(value) + le32(1) }
        return tiff
    }

    private static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(UInt16(payload.count + 2)) + payload
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}
