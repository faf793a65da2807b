import Foundation
import HTTPTypes
import Hummingbird
import KiwiAPIDocument
import NIOCore

/// `GET /openapi.yaml` and `GET /openapi.json`: the API's own description, unauthenticated and cacheable
/// (`ETag`, `Cache-Control`; `If-None-Match` gets 304).
struct APIDocumentController: Sendable {
    func addRoutes(to router: Router<GatewayRequestContext>) {
        router.get("openapi.yaml") { request, _ in Self.document(APIDocument.yaml, contentType: "application/yaml; charset=utf-8", for: request) }
        router.get("openapi.json") { request, _ in Self.document(APIDocument.json, contentType: "application/json; charset=utf-8", for: request) }
    }

    static func document(_ bytes: [UInt8], contentType: String, for request: Request) -> Response {
        .cacheable(
            ByteBuffer(bytes: bytes),
            contentType: contentType,
            entityTag: APIDocument.entityTag,
            headers: [.cacheControl: "public, max-age=3600"],
            for: request
        )
    }
}
