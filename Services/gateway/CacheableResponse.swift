import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension Response {
    /// A 200 with `body` under a strong `entityTag`, or a 304 without a body when the request's `If-None-Match`
    /// names that tag (or is `*`): the client's copy is current. `headers` go on both.
    static func cacheable(_ body: ByteBuffer, contentType: String, entityTag: String, headers: HTTPFields, for request: Request) -> Response {
        var headers = headers
        headers[.eTag] = entityTag
        let named = request.headers[values: .ifNoneMatch].flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        if named.contains(entityTag) || named.contains("*") { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
