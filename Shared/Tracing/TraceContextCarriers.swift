import HTTPTypes
import Instrumentation
import NIOHTTP1

/// Reads W3C trace context (`traceparent`, `tracestate`) from an incoming request's headers.
public struct HTTPFieldsExtractor: Extractor {
    public init() {}

    public func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}

/// Writes W3C trace context into an outgoing AsyncHTTPClient request's headers.
public struct HTTPHeadersInjector: Injector {
    public init() {}

    public func inject(_ value: String, forKey key: String, into headers: inout HTTPHeaders) {
        headers.replaceOrAdd(name: key, value: value)
    }
}

/// Writes W3C trace context into a RabbitMQ message's headers, so the consumer's spans join the producer's trace.
public struct MessageHeadersInjector: Injector {
    public init() {}

    public func inject(_ value: String, forKey key: String, into headers: inout [String: String]) {
        headers[key] = value
    }
}

/// Reads W3C trace context from a RabbitMQ message's headers.
public struct MessageHeadersExtractor: Extractor {
    public init() {}

    public func extract(key: String, from headers: [String: String]) -> String? {
        headers[key]
    }
}

extension ServiceContext {
    /// The trace context of the current task, or a fresh top-level one.
    public static var currentOrTopLevel: ServiceContext { .current ?? .topLevel }

    /// The current task's context continued by the trace context `carrier` holds (a request's or message's headers).
    public static func continuing<Carrier, Reader: Extractor>(_ carrier: Carrier, using extractor: Reader) -> ServiceContext
    where Reader.Carrier == Carrier {
        var context = currentOrTopLevel
        InstrumentationSystem.instrument.extract(carrier, into: &context, using: extractor)
        return context
    }

    /// Writes the current task's trace context into `carrier` (an outgoing request's or message's headers).
    public static func propagate<Carrier, Writer: Injector>(into carrier: inout Carrier, using injector: Writer) where Writer.Carrier == Carrier {
        InstrumentationSystem.instrument.inject(currentOrTopLevel, into: &carrier, using: injector)
    }
}
