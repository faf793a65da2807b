extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal, two digits each (digests in logs, headers and test assertions).
    public var hexEncodedString: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
