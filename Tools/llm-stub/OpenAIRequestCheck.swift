import Foundation
import KiwiDevelopment
import KiwiJPEG
import KiwiModels
import KiwiOpenAI
import KiwiStrictJSON

/// What a request asked for, besides its images: the stub answers by it, and records it for tests and operators.
struct RequestParameters: Codable, Sendable, Hashable {
    var model: String
    var detail: String?
    var temperature: Double?
    var maxCompletionTokens: Int?
    var safetyIdentifier: String?
    var strictSchema: Bool
    /// `response_format.json_schema.name`: `kiwi_dish` asks for a dish answer, `kiwi_receipt` for a receipt's, anything
    /// else for a fridge answer.
    var schemaName = "kiwi_scan"
    var messageCount: Int
    /// The labels (`p1`, `p2`, …) of the pantry items a pantry scan's recipes may name in `usesUp` (the schema's
    /// `enum`), in the order offered; nil for any other request.
    var pantryIDs: [String]?
    /// The slots (`d1-dinner`, …) a Kiwi plan's schema enumerates, in order; nil for any other request.
    var planSlots: [String]?
    /// The most recipes the schema allows (`recipes.maxItems`): one for a Kiwi planned meal's recipe; nil without it.
    var mostRecipes: Int?
    /// The text the user messages carry besides the photo (a profile's constraints, a repair's explanation), in order.
    var userTexts: [String] = []
    /// `stream` and `stream_options.include_usage` as the request gave them (left out of the record when absent).
    var stream: Bool?
    var includeUsage: Bool?
}

/// A request that passed the checks OpenAI makes, with what the stub needs to answer it.
struct CheckedRequest: Sendable {
    var parameters: RequestParameters
    /// The request's images, in order; none in a text-only request (a Kiwi refinement).
    var images: [JPEGImage]

    /// Whether the request asks about a cooked dish rather than a fridge.
    var isDish: Bool { parameters.schemaName == "kiwi_dish" }
    /// Whether the request asks to read a receipt.
    var isReceipt: Bool { parameters.schemaName == "kiwi_receipt" }
    /// The language Kiwi's prompt asks the answer to be written in ("Write every name, … in German"), as a model reads
    /// it; English when it asks none.
    var language: AnswerLanguage {
        AnswerLanguage.allCases.first { language in
            parameters.userTexts.contains { $0.contains(" in \(language.englishName), as a cook who speaks it writes them") }
        } ?? .en
    }
    /// The stub's own answer for a request whose image (or text) has this digest: a dish's, a receipt's, a plan's, a
    /// pantry scan's or a fridge's; a receipt's as `receipts` chooses.
    func ownAnswer(forDigest digest: [UInt8], receipts: ReceiptAnswers.Choice = .byPhoto) -> JSONValue {
        if isDish { return DishAnswers.answer(forDigest: digest) }
        if isReceipt { return ReceiptAnswers.answer(forDigest: digest, choosing: receipts) }
        if let planSlots = parameters.planSlots { return PlanAnswers.answer(slots: planSlots, usingUp: parameters.pantryIDs ?? []) }
        let answer =
            parameters.pantryIDs.map { PantryAnswers.answer(forDigest: digest, usingUp: $0) }
            ?? FridgeAnswers.answer(forDigest: digest, in: language)
        // As many recipes as the schema allows, the first first, as a model held to it writes.
        guard let most = parameters.mostRecipes, case .object(var object) = answer, case .array(let recipes)? = object["recipes"],
            recipes.count > most
        else { return answer }
        object["recipes"] = .array(Array(recipes.prefix(most)))
        return .object(object)
    }

    /// Whether the answer is to be streamed as server-sent events.
    var isStreamed: Bool { parameters.stream == true }
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
        // Foundation's decoder rather than Kiwi's strict parser: the body holds megabytes of base64, and the stub must
        // not be the bottleneck of a load test.
        guard let request = try? JSONDecoder().decode(WireRequest.self, from: Data(body)) else {
            throw .invalidRequest(
                "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. "
                    + "The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)"
            )
        }
        guard let model = request.model, !model.isEmpty else {
            throw .invalidRequest("you must provide a model parameter", param: "model")
        }
        guard let messages = request.messages, !messages.isEmpty else {
            throw .invalidRequest("[] is too short - 'messages'", param: "messages")
        }
        guard let format = request.responseFormat, format.type == "json_schema", let jsonSchema = format.jsonSchema,
            jsonSchema.schema != nil, jsonSchema.name != nil
        else {
            throw .invalidRequest("Missing required parameter: 'response_format.json_schema'.", param: "response_format")
        }
        if let name = jsonSchema.name, !isValidSchemaName(name) {
            throw .invalidRequest(
                "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.",
                param: "response_format.json_schema.name",
                code: "invalid_value"
            )
        }
        if jsonSchema.strict == true, let schema = jsonSchema.schema, let name = jsonSchema.name {
            try checkStrict(schema, name: name)
            try checkSize(schema, name: name)
        }
        if let identifier = request.safetyIdentifier, identifier.count > 64 {
            throw .invalidRequest("Invalid 'safety_identifier': expected a string of at most 64 characters.", param: "safety_identifier")
        }
        let (images, detail) = try imageParts(in: messages)
        return CheckedRequest(
            parameters: RequestParameters(
                model: model,
                detail: detail,
                temperature: request.temperature,
                maxCompletionTokens: request.maxCompletionTokens,
                safetyIdentifier: request.safetyIdentifier,
                strictSchema: jsonSchema.strict == true,
                schemaName: jsonSchema.name ?? "",
                messageCount: messages.count,
                pantryIDs: jsonSchema.schema?.pantryIDs,
                planSlots: jsonSchema.schema?.planSlots,
                mostRecipes: jsonSchema.schema?.mostRecipes,
                userTexts: messages.filter { $0.role == "user" }.flatMap { message -> [String] in
                    switch message.content {
                    case .text(let text)?: [text]
                    case .parts(let parts)?: parts.compactMap(\.text)
                    case nil: []
                    }
                },
                stream: request.stream,
                includeUsage: request.streamOptions?.includeUsage
            ),
            images: images
        )
    }

    /// The keywords OpenAI's "Supported schemas" page lists for Structured Outputs; any other keyword in a strict
    /// schema (`minLength`, `maxLength`, `allOf`, `not`, `if`, `default`, `uniqueItems`, `patternProperties`, …) is
    /// refused with a 400 before the model runs.
    static let supportedKeywords: Set<String> = [
        "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const", "description", "title", "$ref", "$defs",
        "definitions", "pattern", "format", "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems",
    ]
    /// The string formats OpenAI supports.
    static let supportedFormats: Set<String> = ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]
    /// How deeply objects may nest, and how many properties a schema may have in all. OpenAI first documented 5
    /// levels and 100 properties, and later 10 and 5,000; the stub holds the stricter numbers, so that a schema that
    /// passes here passes either.
    static let maximumNesting = 5
    static let maximumProperties = 100

    /// `json_schema.name`: `[a-zA-Z0-9_-]{1,64}`.
    static func isValidSchemaName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D
            }
    }

    private static func schemaError(_ name: String, context: [String], _ problem: String) -> OpenAIError {
        let path = context.map { "'\($0)'" }.joined(separator: ", ")
        return .invalidRequest(
            "Invalid schema for response_format '\(name)': In context=(\(path)), \(problem)",
            param: "response_format",
            code: "invalid_json_schema"
        )
    }

    /// The limits on a schema's nesting and size, in OpenAI's words.
    private static func checkSize(_ schema: SchemaNode, name: String) throws(OpenAIError) {
        let (depth, properties) = (schema.objectNesting, schema.propertyCount)
        if depth > maximumNesting {
            throw .invalidRequest(
                "Invalid schema for response_format '\(name)': \(depth) levels of nesting exceeds limit of \(maximumNesting).",
                param: "response_format",
                code: "invalid_json_schema"
            )
        }
        if properties > maximumProperties {
            throw .invalidRequest(
                "Invalid schema for response_format '\(name)': \(properties) object properties exceeds limit of \(maximumProperties).",
                param: "response_format",
                code: "invalid_json_schema"
            )
        }
    }

    /// What Structured Outputs demands of a strict schema: only supported keywords, an object at the root, and every
    /// object closed (`additionalProperties: false`) with every property required. OpenAI's messages, with their
    /// context path.
    private static func checkStrict(_ node: SchemaNode, name: String, context: [String] = []) throws(OpenAIError) {
        func refuse(_ problem: String) -> OpenAIError { schemaError(name, context: context, problem) }
        if let keyword = node.keywords.sorted().first(where: { !supportedKeywords.contains($0) }) { throw refuse("'\(keyword)' is not permitted.") }
        if let format = node.format, !supportedFormats.contains(format) { throw refuse("'format' of '\(format)' is not supported.") }
        if context.isEmpty, node.types != ["object"] { throw refuse("schema must be a JSON Schema of 'type: \"object\"', got '\(node.types)'.") }
        if node.types.contains("object") {
            guard node.additionalProperties == false else {
                throw refuse("'additionalProperties' is required to be supplied and to be false.")
            }
            let keys = (node.properties ?? [:]).keys.sorted()
            if let missing = keys.first(where: { !(node.required ?? []).contains($0) }) {
                throw refuse("'required' is required to be supplied and to be an array including every key in properties. Missing '\(missing)'.")
            }
            for key in keys { try checkStrict(node.properties![key]!, name: name, context: context + ["properties", key]) }
        }
        if let items = node.items { try checkStrict(items, name: name, context: context + ["items"]) }
        for (index, option) in (node.anyOf ?? []).enumerated() {
            try checkStrict(option, name: name, context: context + ["anyOf", "\(index)"])
        }
        for (key, definition) in (node.definitions ?? [:]).sorted(by: { $0.key < $1.key }) {
            try checkStrict(definition, name: name, context: context + ["$defs", key])
        }
    }

    /// The images of the request, if any: `image_url` parts whose URLs are base64 JPEG data URLs of well-formed JPEGs,
    /// and the detail of the first.
    private static func imageParts(in messages: [WireRequest.Message]) throws(OpenAIError) -> ([JPEGImage], String?) {
        var images: [(JPEGImage, String?)] = []
        for case .parts(let parts)? in messages.map(\.content) {
            for part in parts where part.type == "image_url" {
                guard let url = part.imageURL?.url else {
                    throw .invalidRequest("Missing required parameter: 'messages[].content[].image_url.url'.", param: "messages")
                }
                let prefix = "data:image/jpeg;base64,"
                guard url.hasPrefix(prefix), let bytes = Data(base64Encoded: Data(url.utf8.dropFirst(prefix.utf8.count))) else {
                    throw .invalidRequest(
                        "Invalid image URL: expected a base64-encoded data URL with an image MIME type.",
                        param: "url",
                        code: "invalid_image_url"
                    )
                }
                let image: JPEGImage
                do {
                    image = try JPEGImage(parsing: Array(bytes))
                } catch {
                    throw .invalidRequest("You uploaded an unsupported image. Please make sure your image is valid.", code: "image_parse_error")
                }
                if let detail = part.imageURL?.detail, !["low", "high", "auto"].contains(detail) {
                    throw .invalidRequest("Invalid value: '\(detail)'. Supported values are: 'low', 'high', and 'auto'.", param: "detail")
                }
                images.append((image, part.imageURL?.detail))
            }
        }
        return (images.map(\.0), images.first?.1)
    }
}

/// The parts of a Chat Completions request the stub checks, as they are on the wire.
private struct WireRequest: Decodable {
    var model: String?
    var messages: [Message]?
    var responseFormat: ResponseFormat?
    var temperature: Double?
    var maxCompletionTokens: Int?
    var safetyIdentifier: String?
    var stream: Bool?
    var streamOptions: StreamOptions?

    enum CodingKeys: String, CodingKey {
        case model, messages, temperature, stream
        case responseFormat = "response_format"
        case maxCompletionTokens = "max_completion_tokens"
        case safetyIdentifier = "safety_identifier"
        case streamOptions = "stream_options"
    }

    struct StreamOptions: Decodable {
        var includeUsage: Bool?

        enum CodingKeys: String, CodingKey {
            case includeUsage = "include_usage"
        }
    }

    struct Message: Decodable {
        var role: String
        var content: Content?
    }

    /// A message's content: a string, or an array of typed parts.
    enum Content: Decodable {
        case text(String)
        case parts([Part])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .parts(try container.decode([Part].self))
            }
        }
    }

    struct Part: Decodable {
        var type: String
        var imageURL: ImageURL?
        var text: String?

        enum CodingKeys: String, CodingKey {
            case type, text
            case imageURL = "image_url"
        }
    }

    struct ImageURL: Decodable {
        var url: String?
        var detail: String?
    }

    struct ResponseFormat: Decodable {
        var type: String
        var jsonSchema: JSONSchemaFormat?

        enum CodingKeys: String, CodingKey {
            case type
            case jsonSchema = "json_schema"
        }
    }

    struct JSONSchemaFormat: Decodable {
        var name: String?
        var strict: Bool?
        var schema: SchemaNode?
    }
}

/// The parts of a JSON Schema that strict mode constrains, and the names of all its keywords.
private final class SchemaNode: Decodable {
    let keywords: [String]
    let types: [String]
    let format: String?
    let properties: [String: SchemaNode]?
    let required: [String]?
    let additionalProperties: Bool?
    let items: SchemaNode?
    let anyOf: [SchemaNode]?
    let definitions: [String: SchemaNode]?
    /// The `enum` of a schema whose values are strings.
    let enumStrings: [String]?
    let maxItems: Int?

    private struct Keyword: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keyword.self)
        keywords = container.allKeys.map(\.stringValue)
        func key(_ name: String) -> Keyword { Keyword(stringValue: name) }
        if let single = try? container.decode(String.self, forKey: key("type")) {
            types = [single]
        } else {
            types = try container.decodeIfPresent([String].self, forKey: key("type")) ?? []
        }
        format = try? container.decodeIfPresent(String.self, forKey: key("format"))
        properties = try container.decodeIfPresent([String: SchemaNode].self, forKey: key("properties"))
        required = try container.decodeIfPresent([String].self, forKey: key("required"))
        additionalProperties = try? container.decodeIfPresent(Bool.self, forKey: key("additionalProperties"))
        items = try container.decodeIfPresent(SchemaNode.self, forKey: key("items"))
        anyOf = try container.decodeIfPresent([SchemaNode].self, forKey: key("anyOf"))
        definitions = try container.decodeIfPresent([String: SchemaNode].self, forKey: key("$defs"))
        enumStrings = try? container.decodeIfPresent([String].self, forKey: key("enum"))
        maxItems = try? container.decodeIfPresent(Int.self, forKey: key("maxItems"))
    }

    /// The labels of the items a recipe of a Kiwi pantry scan may use up (`recipes.items.usesUp.items.enum`), or a
    /// meal of a Kiwi plan (`meals.items.usesUp.items.enum`).
    var pantryIDs: [String]? {
        (properties?["recipes"] ?? properties?["meals"])?.items?.properties?["usesUp"]?.items?.enumStrings
    }

    /// The most recipes a Kiwi answer may have: `recipes.maxItems`.
    var mostRecipes: Int? { properties?["recipes"]?.maxItems }

    /// The slots of a Kiwi plan: `meals.items.slot.enum`.
    var planSlots: [String]? {
        properties?["meals"]?.items?.properties?["slot"]?.enumStrings
    }

    private var children: [SchemaNode] {
        Array((properties ?? [:]).values) + (items.map { [$0] } ?? []) + (anyOf ?? []) + Array((definitions ?? [:]).values)
    }

    /// How many object schemas deep the deepest one is (the root object is level 1).
    var objectNesting: Int {
        (types.contains("object") ? 1 : 0) + (children.map(\.objectNesting).max() ?? 0)
    }

    /// The properties of every object in the schema.
    var propertyCount: Int {
        (properties?.count ?? 0) + children.map(\.propertyCount).reduce(0, +)
    }
}
