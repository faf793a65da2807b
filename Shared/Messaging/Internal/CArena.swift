import CRabbitMQ
import Foundation
import KiwiConcurrency

/// A value in an AMQP field table, of the kinds Kiwi writes.
enum AMQPField {
    case text(String)
    case flag(Bool)
    case integer(Int64)
    case table([String: AMQPField])
}

/// C copies of Swift values for one rabbitmq-c call, all freed together when the arena goes away.
/// rabbitmq-c only borrows what it is given, so an arena must outlive the call that uses its values.
final class CArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    deinit {
        for allocation in allocations { free(allocation) }
    }

    func bytes(_ text: String) -> amqp_bytes_t {
        bytes(Array(text.utf8))
    }

    func bytes(_ data: [UInt8]) -> amqp_bytes_t {
        guard !data.isEmpty, let memory = malloc(data.count) else { return amqp_empty_bytes }
        allocations.append(memory)
        data.withUnsafeBytes { memory.copyMemory(from: $0.baseAddress!, byteCount: data.count) }
        return amqp_bytes_t(len: data.count, bytes: memory)
    }

    /// A field table of text values (`S` fields), in key order.
    func table(_ entries: [String: String]) -> amqp_table_t {
        table(entries.mapValues(AMQPField.text))
    }

    /// A field table, in key order; values may be text, booleans, integers or nested tables.
    func table(_ entries: [String: AMQPField]) -> amqp_table_t {
        guard !entries.isEmpty, let raw = malloc(entries.count * MemoryLayout<amqp_table_entry_t>.stride) else { return amqp_empty_table }
        allocations.append(raw)
        let memory = raw.bindMemory(to: amqp_table_entry_t.self, capacity: entries.count)
        for (index, key) in entries.keys.sorted().enumerated() {
            var value = amqp_field_value_t()
            switch entries[key]! {
            case .text(let text):
                value.kind = UInt8(AMQP_FIELD_KIND_UTF8.rawValue)
                value.value.bytes = bytes(text)
            case .flag(let flag):
                value.kind = UInt8(AMQP_FIELD_KIND_BOOLEAN.rawValue)
                value.value.boolean = flag ? 1 : 0
            case .integer(let integer):
                value.kind = UInt8(AMQP_FIELD_KIND_I64.rawValue)
                value.value.i64 = integer
            case .table(let nested):
                value.kind = UInt8(AMQP_FIELD_KIND_TABLE.rawValue)
                value.value.table = table(nested)
            }
            (memory + index).initialize(to: amqp_table_entry_t(key: bytes(key), value: value))
        }
        return amqp_table_t(num_entries: Int32(entries.count), entries: memory)
    }

    /// The C form of message properties.
    func properties(_ properties: AMQPProperties) -> amqp_basic_properties_t {
        var result = amqp_basic_properties_t()
        var flags: amqp_flags_t = KIWI_AMQP_DELIVERY_MODE_FLAG
        result.delivery_mode = properties.persistent ? 2 : 1
        func set(_ value: String?, _ flag: amqp_flags_t, _ field: WritableKeyPath<amqp_basic_properties_t, amqp_bytes_t>) {
            guard let value else { return }
            result[keyPath: field] = bytes(value)
            flags |= flag
        }
        set(properties.contentType, KIWI_AMQP_CONTENT_TYPE_FLAG, \.content_type)
        set(properties.correlationID, KIWI_AMQP_CORRELATION_ID_FLAG, \.correlation_id)
        set(properties.replyTo, KIWI_AMQP_REPLY_TO_FLAG, \.reply_to)
        set(properties.messageID, KIWI_AMQP_MESSAGE_ID_FLAG, \.message_id)
        set(properties.type, KIWI_AMQP_TYPE_FLAG, \.type)
        if let expiration = properties.expiration {
            set(String(max(0, expiration.milliseconds)), KIWI_AMQP_EXPIRATION_FLAG, \.expiration)
        }
        if let timestamp = properties.timestamp {
            result.timestamp = UInt64(max(0, timestamp.timeIntervalSince1970))
            flags |= KIWI_AMQP_TIMESTAMP_FLAG
        }
        if !properties.headers.isEmpty {
            result.headers = table(properties.headers)
            flags |= KIWI_AMQP_HEADERS_FLAG
        }
        result._flags = flags
        return result
    }
}

extension AMQPProperties {
    /// Reads the properties rabbitmq-c decoded; header values that are not text become their textual form.
    init(_ properties: amqp_basic_properties_t) {
        func text(_ flag: amqp_flags_t, _ bytes: amqp_bytes_t) -> String? {
            properties._flags & flag != 0 ? String(bytes) : nil
        }
        self.init(
            contentType: text(KIWI_AMQP_CONTENT_TYPE_FLAG, properties.content_type),
            correlationID: text(KIWI_AMQP_CORRELATION_ID_FLAG, properties.correlation_id),
            replyTo: text(KIWI_AMQP_REPLY_TO_FLAG, properties.reply_to),
            expiration: text(KIWI_AMQP_EXPIRATION_FLAG, properties.expiration).flatMap(Int64.init).map { .milliseconds($0) },
            messageID: text(KIWI_AMQP_MESSAGE_ID_FLAG, properties.message_id),
            type: text(KIWI_AMQP_TYPE_FLAG, properties.type),
            timestamp: properties._flags & KIWI_AMQP_TIMESTAMP_FLAG != 0 ? Date(timeIntervalSince1970: TimeInterval(properties.timestamp)) : nil,
            persistent: properties._flags & KIWI_AMQP_DELIVERY_MODE_FLAG != 0 && properties.delivery_mode == 2,
            headers: properties._flags & KIWI_AMQP_HEADERS_FLAG != 0 ? Self.headers(properties.headers) : [:]
        )
    }

    private static func headers(_ table: amqp_table_t) -> [String: String] {
        var headers: [String: String] = [:]
        for index in 0..<Int(table.num_entries) {
            let entry = table.entries[index]
            let value = entry.value
            let text: String? =
                switch Int32(value.kind) {
                case Int32(AMQP_FIELD_KIND_UTF8.rawValue), Int32(AMQP_FIELD_KIND_BYTES.rawValue): String(value.value.bytes)
                case Int32(AMQP_FIELD_KIND_BOOLEAN.rawValue): value.value.boolean != 0 ? "true" : "false"
                case Int32(AMQP_FIELD_KIND_I8.rawValue): String(value.value.i8)
                case Int32(AMQP_FIELD_KIND_U8.rawValue): String(value.value.u8)
                case Int32(AMQP_FIELD_KIND_I16.rawValue): String(value.value.i16)
                case Int32(AMQP_FIELD_KIND_U16.rawValue): String(value.value.u16)
                case Int32(AMQP_FIELD_KIND_I32.rawValue): String(value.value.i32)
                case Int32(AMQP_FIELD_KIND_U32.rawValue): String(value.value.u32)
                case Int32(AMQP_FIELD_KIND_I64.rawValue), Int32(AMQP_FIELD_KIND_TIMESTAMP.rawValue): String(value.value.i64)
                case Int32(AMQP_FIELD_KIND_U64.rawValue): String(value.value.u64)
                default: nil
                }
            if let text { headers[String(entry.key)] = text }
        }
        return headers
    }
}

extension String {
    /// The text of rabbitmq-c bytes, read as UTF-8.
    init(_ bytes: amqp_bytes_t) {
        self = bytes.len == 0 ? "" : String(decoding: UnsafeRawBufferPointer(start: bytes.bytes, count: bytes.len), as: UTF8.self)
    }
}

extension Array where Element == UInt8 {
    /// A copy of rabbitmq-c bytes.
    init(_ bytes: amqp_bytes_t) {
        self = bytes.len == 0 ? [] : Array(UnsafeRawBufferPointer(start: bytes.bytes, count: bytes.len))
    }
}
