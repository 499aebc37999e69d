/* SPDX-License-Identifier: MIT */
/*
 * user_settings.h - how bootbench builds the files of wolfSSL (Debian's
 * wolfssl source, the one curl is built with) it links: Ed25519 and the
 * SHA-512 it signs with, for the erase certificates' signatures
 * (erase/certificate.c); SHA-256 for ssh keys' fingerprints; and a TLS 1.2
 * and 1.3 client for syslog over TLS (RFC 5425, save/syslog_tls.c): ECDHE
 * with AES-GCM, certificates signed with RSA or ECDSA, verified against a
 * CA given as a buffer (no file system of its own), host names and IP
 * addresses matched. No server, no old TLS, no DH, no threads of its own
 * (one thread uses it), C only (the sanitizer builds see every line).
 */
#define HAVE_ED25519
#define WOLFSSL_SHA512
#define WOLFSSL_SHA384
#define SINGLE_THREADED
#define NO_FILESYSTEM
#define WOLFSSL_NO_ASM
#define NO_WOLFSSL_SERVER
#define WOLFSSL_TLS13
#define HAVE_TLS_EXTENSIONS
#define HAVE_SUPPORTED_CURVES
#define HAVE_SNI
#define HAVE_ECC
#define ECC_TIMING_RESISTANT
#define TFM_TIMING_RESISTANT
#define WC_RSA_BLINDING
#define WC_RSA_PSS
#define HAVE_AESGCM
#define HAVE_HKDF
#define WOLFSSL_IP_ALT_NAME
#define WOLFSSL_SP_MATH_ALL
#define HAVE_HASHDRBG
#define NO_DH
#define NO_DSA
#define NO_DES3
#define NO_MD4
#define NO_MD5
#define NO_RC4
#define NO_PSK
#define NO_PWDBASED
#define NO_OLD_TLS
#define NO_SESSION_CACHE
#define WOLFSSL_BASE64_ENCODE
