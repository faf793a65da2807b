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

#endif
