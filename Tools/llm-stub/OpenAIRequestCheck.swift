import Foundation
import KiwiJPEG
import KiwiModels
import KiwiOpenAI

/// A request that passed the checks OpenAI makes, with what the stub needs to answer it.
struct CheckedRequest: Sendable {
    var model: String
    var detail: String?
    var temperature: Double?
    var maxCompletionTokens: Int?
    var safetyIdentifier: String?
    var strictSchema: Bool
    var messageCount: Int
    var image: JPEGImage
}

/// An error as OpenAI would send it.
struct OpenAIError: Error, Sendable {
    var status: Int
    var body: OpenAIErrorBody

    static func invalidRequest(_ message: String, param: String? = nil, code: String? = nil) -> OpenAIError {
        OpenAIError(status: 400, body: OpenAIErrorBody(message: message, type: "invalid_request_error", param: param, code: code))
    }
}

/// Checks a Chat Completions request the way OpenAI does, with OpenAI's messages where they are known.
enum OpenAIRequestCheck {
    static func check(authorization: String?, body: [UInt8], expectedAPIKey: String?) throws(OpenAIError) -> CheckedRequest {
        guard let authorization, authorization.hasPrefix("Bearer "), authorization.count > "Bearer ".count else {
            throw OpenAIError(
                status: 401,
                body: OpenAIErrorBody(
                    message: "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth "
                        + "(i.e. Authorization: Bearer YOUR_KEY).",
                    type: "invalid_request_error"
                )
            )
        }
        if let expectedAPIKey, authorization.dropFirst("Bearer ".count) != expectedAPIKey {
            throw OpenAIError(
                status: 401,
                body: OpenAIErrorBody(message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key")
            )
        }
        guard case .object(let request)? = try? StrictJSONParser().parse(Data(body)) else {
            throw .invalidRequest(
                "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. "
                    + "The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
            )
        }
        guard case .string(let model)? = request["model"], !model.isEmpty else {
            throw .invalidRequest("you must provide a model parameter", param: "model")
        }
        guard case .array(let messages)? = request["messages"], !messages.isEmpty else {
            throw .invalidRequest("[] is too short - 'messages'", param: "messages")
        }
        guard case .object(let format)? = request["response_format"], format["type"] == .string("json_schema"),
            case .object(let jsonSchema)? = format["json_schema"], case .object? = jsonSchema["schema"],
            case .string? = jsonSchema["name"]
        else {
            throw .invalidRequest("Missing required parameter: 'response_format.json_schema'.", param: "response_format")
        }
        var safetyIdentifier: String?
        if let value = request["safety_identifier"] {
            guard case .string(let identifier) = value, identifier.count <= 64 else {
                throw .invalidRequest("Invalid 'safety_identifier': expected a string of at most 64 characters.", param: "safety_identifier")
            }
            safetyIdentifier = identifier
        }
        let (image, detail) = try imagePart(in: messages)
        return CheckedRequest(
            model: model, detail: detail, temperature: number(request["temperature"]),
            maxCompletionTokens: number(request["max_completion_tokens"]).map { Int($0) }, safetyIdentifier: safetyIdentifier,
            strictSchema: jsonSchema["strict"] == .bool(true), messageCount: messages.count, image: image
        )
    }

    /// The one image of the request: an `image_url` part whose URL is a base64 JPEG data URL of a well-formed JPEG.
    private static func imagePart(in messages: [JSONValue]) throws(OpenAIError) -> (JPEGImage, String?) {
        for case .object(let message) in messages {
            guard case .array(let parts)? = message["content"] else { continue }
            for case .object(let part) in parts where part["type"] == .string("image_url") {
                guard case .object(let imageURL)? = part["image_url"], case .string(let url)? = imageURL["url"] else {
                    throw .invalidRequest("Missing required parameter: 'messages[].content[].image_url.url'.", param: "messages")
                }
                let prefix = "data:image/jpeg;base64,"
                guard url.hasPrefix(prefix), let bytes = Data(base64Encoded: String(url.dropFirst(prefix.count))) else {
                    throw .invalidRequest("Invalid image URL: expected a base64-encoded data URL with an image MIME type.", param: "url",
                                          code: "invalid_image_url")
                }
                let image: JPEGImage
                do {
                    image = try JPEGImage(parsing: Array(bytes))
                } catch {
                    throw .invalidRequest("You uploaded an unsupported image. Please make sure your image is valid.", code: "image_parse_error")
                }
                var detail: String?
                if case .string(let value)? = imageURL["detail"] {
                    guard ["low", "high", "auto"].contains(value) else {
                        throw .invalidRequest("Invalid value: '\(value)'. Supported values are: 'low', 'high', and 'auto'.", param: "detail")
                    }
                    detail = value
                }
                return (image, detail)
            }
        }
        throw .invalidRequest("This stub answers only requests with an image: no image_url content part was found.", param: "messages")
    }

    private static func number(_ value: JSONValue?) -> Double? {
        guard case .number(let number)? = value else { return nil }
        return number.value
    }
}
