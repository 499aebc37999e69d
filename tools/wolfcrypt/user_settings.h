/* SPDX-License-Identifier: MIT */
/*
 * user_settings.h - how bootbench builds the few files of wolfCrypt (from
 * Debian's wolfssl source, the one curl is built with) it links: Ed25519
 * and the SHA-512 it signs with, for the erase certificates' signatures
 * (erase/certificate.c). Nothing else of wolfSSL: no TLS, no ASN.1 parser,
 * no random generator (Ed25519 signatures are deterministic), no file
 * system, no threads of its own, C only (the sanitizer builds see every
 * line).
 */
#define HAVE_ED25519
#define WOLFSSL_SHA512
#define WOLFCRYPT_ONLY
#define SINGLE_THREADED
#define NO_FILESYSTEM
#define WOLFSSL_NO_ASM
#define WC_NO_RNG
#define NO_ASN
#define NO_RSA
#define NO_DH
#define NO_DSA
#define NO_AES
#define NO_DES3
#define NO_MD5
#define NO_SHA
#define NO_HMAC
#define NO_PWDBASED
#define NO_OLD_TLS
#define WOLFSSL_BASE64_ENCODE
