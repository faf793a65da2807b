// rabbitmq-c's headers moved: Debian 12 (0.11) installs them flat as <amqp.h>, releases from 0.12 on
// install them under <rabbitmq-c/…>. Include whichever this machine has.
#ifndef KIWI_CRABBITMQ_SHIM_H
#define KIWI_CRABBITMQ_SHIM_H

#if __has_include(<rabbitmq-c/amqp.h>)
#include <rabbitmq-c/amqp.h>
#include <rabbitmq-c/framing.h>
#include <rabbitmq-c/tcp_socket.h>
#else
#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#endif

// Swift cannot call C variadic functions; this fixes amqp_login_with_properties to SASL PLAIN.
static inline amqp_rpc_reply_t kiwi_amqp_login_plain(amqp_connection_state_t state, const char *vhost, int frame_max,
                                                     int heartbeat, const amqp_table_t *client_properties,
                                                     const char *user, const char *password) {
    return amqp_login_with_properties(state, vhost, 0, frame_max, heartbeat, client_properties,
                                      AMQP_SASL_METHOD_PLAIN, user, password);
}

// Method ids and property flags are macros with casts or shifts, which Swift does not import.
static const amqp_method_number_t KIWI_AMQP_BASIC_DELIVER = AMQP_BASIC_DELIVER_METHOD;
static const amqp_method_number_t KIWI_AMQP_BASIC_ACK = AMQP_BASIC_ACK_METHOD;
static const amqp_method_number_t KIWI_AMQP_BASIC_NACK = AMQP_BASIC_NACK_METHOD;
static const amqp_method_number_t KIWI_AMQP_BASIC_RETURN = AMQP_BASIC_RETURN_METHOD;
static const amqp_method_number_t KIWI_AMQP_BASIC_CANCEL = AMQP_BASIC_CANCEL_METHOD;
static const amqp_method_number_t KIWI_AMQP_CHANNEL_CLOSE = AMQP_CHANNEL_CLOSE_METHOD;
static const amqp_method_number_t KIWI_AMQP_CONNECTION_CLOSE = AMQP_CONNECTION_CLOSE_METHOD;
static const amqp_method_number_t KIWI_AMQP_CONNECTION_BLOCKED = AMQP_CONNECTION_BLOCKED_METHOD;
static const amqp_method_number_t KIWI_AMQP_CONNECTION_UNBLOCKED = AMQP_CONNECTION_UNBLOCKED_METHOD;

static const amqp_flags_t KIWI_AMQP_CONTENT_TYPE_FLAG = AMQP_BASIC_CONTENT_TYPE_FLAG;
static const amqp_flags_t KIWI_AMQP_HEADERS_FLAG = AMQP_BASIC_HEADERS_FLAG;
static const amqp_flags_t KIWI_AMQP_DELIVERY_MODE_FLAG = AMQP_BASIC_DELIVERY_MODE_FLAG;
static const amqp_flags_t KIWI_AMQP_CORRELATION_ID_FLAG = AMQP_BASIC_CORRELATION_ID_FLAG;
static const amqp_flags_t KIWI_AMQP_REPLY_TO_FLAG = AMQP_BASIC_REPLY_TO_FLAG;
static const amqp_flags_t KIWI_AMQP_EXPIRATION_FLAG = AMQP_BASIC_EXPIRATION_FLAG;
static const amqp_flags_t KIWI_AMQP_MESSAGE_ID_FLAG = AMQP_BASIC_MESSAGE_ID_FLAG;
static const amqp_flags_t KIWI_AMQP_TIMESTAMP_FLAG = AMQP_BASIC_TIMESTAMP_FLAG;
static const amqp_flags_t KIWI_AMQP_TYPE_FLAG = AMQP_BASIC_TYPE_FLAG;

#endif
