/// `multipart/form-data` bodies as the apps send photos to `POST /v1/scan`: for tests, the load test and the
/// gateway's floor.
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

extension MultipartUpload {
    /// A body with each of `photos` as a field `image`, in order, then each of `fields` as a text field.
    public static func make(
        photos: [[UInt8]],
        fields: [(name: String, value: String)] = [],
        boundary: String = "kiwi-test-boundary"
    ) -> (contentType: String, body: [UInt8]) {
        var body: [UInt8] = []
        for (index, photo) in photos.enumerated() {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"image\"; filename=\"photo\(index + 1).jpg\"\r\n".utf8)
            body += Array("Content-Type: image/jpeg\r\n\r\n".utf8) + photo + Array("\r\n".utf8)
        }
        for field in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field.name)\"\r\n\r\n\(field.value)\r\n".utf8)
        }
        return ("multipart/form-data; boundary=\(boundary)", body + Array("--\(boundary)--\r\n".utf8))
    }
}
