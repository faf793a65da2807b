/// `multipart/form-data` bodies as the apps send photos to `POST /v1/scan`.
public enum MultipartUpload {
    /// A body with one file field.
    public static func make(
        _ image: [UInt8],
        field: String = "image",
        partType: String = "image/jpeg",
        boundary: String = "kiwi-test-boundary"
    ) -> (contentType: String, body: [UInt8]) {
        let envelope = envelope(field: field, partType: partType, boundary: boundary)
        return (envelope.contentType, envelope.head + image + envelope.tail)
    }

    /// What goes around the file in ``make(_:field:partType:boundary:)``, for bodies sent in pieces.
    public static func envelope(
        field: String = "image",
        partType: String = "image/jpeg",
        boundary: String = "kiwi-test-boundary"
    ) -> (contentType: String, head: [UInt8], tail: [UInt8]) {
        let head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; filename=\"fridge.jpg\"\r\nContent-Type: \(partType)\r\n\r\n"
        return ("multipart/form-data; boundary=\(boundary)", Array(head.utf8), Array("\r\n--\(boundary)--\r\n".utf8))
    }
}
