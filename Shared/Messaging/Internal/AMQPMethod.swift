import CRabbitMQ

/// A method frame from the broker that a link's role handles, read out of rabbitmq-c's C structures here so that the
/// publisher and consumer never touch them.
enum AMQPMethod {
    /// `basic.ack` / `basic.nack`: the broker's verdict on published messages, up to `deliveryTag` when `multiple`.
    case acknowledged(deliveryTag: UInt64, multiple: Bool)
    case refused(deliveryTag: UInt64, multiple: Bool)
    /// `basic.return`: a mandatory message no queue took; its content follows.
    case returned(replyCode: Int, replyText: String)
    /// `basic.deliver`: a message for a consumer; its content follows.
    case delivered(deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String)
    /// `basic.cancel`: the broker cancelled a consumer (its queue was deleted).
    case consumerCancelled
    /// Anything else, which the roles ignore.
    case other

    init(id: amqp_method_number_t, decoded: UnsafeMutableRawPointer?) {
        if id == KIWI_AMQP_BASIC_CANCEL {
            self = .consumerCancelled
            return
        }
        guard let decoded else {
            self = .other
            return
        }
        switch id {
        case KIWI_AMQP_BASIC_ACK:
            let ack = decoded.assumingMemoryBound(to: amqp_basic_ack_t.self).pointee
            self = .acknowledged(deliveryTag: ack.delivery_tag, multiple: ack.multiple != 0)
        case KIWI_AMQP_BASIC_NACK:
            let nack = decoded.assumingMemoryBound(to: amqp_basic_nack_t.self).pointee
            self = .refused(deliveryTag: nack.delivery_tag, multiple: nack.multiple != 0)
        case KIWI_AMQP_BASIC_RETURN:
            let returned = decoded.assumingMemoryBound(to: amqp_basic_return_t.self).pointee
            self = .returned(replyCode: Int(returned.reply_code), replyText: String(returned.reply_text))
        case KIWI_AMQP_BASIC_DELIVER:
            let deliver = decoded.assumingMemoryBound(to: amqp_basic_deliver_t.self).pointee
            self = .delivered(
                deliveryTag: deliver.delivery_tag,
                redelivered: deliver.redelivered != 0,
                exchange: String(deliver.exchange),
                routingKey: String(deliver.routing_key)
            )
        default:
            self = .other
        }
    }
}
