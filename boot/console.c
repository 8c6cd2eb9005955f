// SPDX-License-Identifier: MIT
/* Stub output; see console.h and docs/stub.md, "Output". */
#include <efi.h>
#include <efilib.h>

#include "../common/buf.h"
#include "console.h"
#include "efitext.h"

/* UEFI 2.10, 10.3.4.10 UART Device Path: messaging type 3, subtype 14 */
static int node_is_uart(const EFI_DEVICE_PATH *n)
{
	return DevicePathType(n) == MESSAGING_DEVICE_PATH && DevicePathSubType(n) == MSG_UART_DP;
}

/* Walks all instances of a (multi-instance) device path of size bytes. */
static int path_has_uart(const EFI_DEVICE_PATH *dp, UINTN size)
{
	const UINT8 *p = (const UINT8 *)dp, *end = p + size;

	while (p && p + sizeof(EFI_DEVICE_PATH) <= end) {
		const EFI_DEVICE_PATH *n = (const EFI_DEVICE_PATH *)p;
		UINTN len = DevicePathNodeLength(n);

		if (DevicePathType(n) == END_DEVICE_PATH_TYPE &&
		    DevicePathSubType(n) == END_ENTIRE_DEVICE_PATH_SUBTYPE)
			break;
		if (len < sizeof(EFI_DEVICE_PATH))
			break;
		if (node_is_uart(n))
			return 1;
		p += len;
	}
	return 0;
}

/* 1 when the device path `prefix` (without its end node) starts `path`. */
static int path_is_prefix(const EFI_DEVICE_PATH *prefix, const EFI_DEVICE_PATH *path, UINTN size)
{
	UINTN plen = DevicePathSize((EFI_DEVICE_PATH *)prefix) - sizeof(EFI_DEVICE_PATH);
	const UINT8 *a = (const UINT8 *)prefix, *b = (const UINT8 *)path;

	if (plen == 0 || plen > size)
		return 0;
	for (UINTN i = 0; i < plen; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

static void write_text_out(SIMPLE_TEXT_OUTPUT_INTERFACE *out, const char *s, UINTN n)
{
	CHAR16 buf[130];
	UINTN k = 0;

	if (!out)
		return;
	for (UINTN i = 0; i < n; i++) {
		if (s[i] == '\n')
			buf[k++] = L'\r';
		buf[k++] = (CHAR16)(unsigned char)s[i];
		if (k >= 128) {
			buf[k] = 0;
			uefi_call_wrapper(out->OutputString, 2, out, buf);
			k = 0;
		}
	}
	if (k) {
		buf[k] = 0;
		uefi_call_wrapper(out->OutputString, 2, out, buf);
	}
}

static void write_serial(EFI_SERIAL_IO_PROTOCOL *sio, const char *s, UINTN n)
{
	char buf[256];
	UINTN k = 0;

	if (!sio)
		return;
	for (UINTN i = 0; i < n; i++) {
		if (s[i] == '\n')
			buf[k++] = '\r';
		buf[k++] = s[i];
		if (k >= sizeof(buf) - 2 || i + 1 == n) {
			UINTN len = k;

			/* Write may return early on a FIFO timeout: finish it. */
			for (UINTN off = 0, tries = 0; off < k && tries < 16; tries++) {
				len = k - off;
				uefi_call_wrapper(sio->Write, 3, sio, &len, buf + off);
				off += len;
			}
			k = 0;
		}
	}
}

/* The serial port: the one the ConOut variable names if any, else the first. */
static void find_serial(struct tp_console *c, EFI_DEVICE_PATH *conout_var, UINTN var_size)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol,
					&gEfiSerialIoProtocolGuid, NULL, &n, &handles)))
		return;
	for (UINTN i = 0; i < n; i++) {
		EFI_SERIAL_IO_PROTOCOL *sio;
		EFI_DEVICE_PATH *dp = DevicePathFromHandle(handles[i]);

		if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, handles[i],
						&gEfiSerialIoProtocolGuid, (void **)&sio)))
			continue;
		if (!c->serial)
			c->serial = sio;
		if (conout_var && dp && path_is_prefix(dp, conout_var, var_size)) {
			c->serial = sio;
			break;
		}
	}
	FreePool(handles);
}

/* No ConOut variable: is any text output itself on a UART? */
static void conout_serial_by_outputs(struct tp_console *c)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol,
					&gEfiSimpleTextOutProtocolGuid, NULL, &n, &handles)))
		return;
	for (UINTN i = 0; i < n; i++) {
		EFI_DEVICE_PATH *dp = DevicePathFromHandle(handles[i]);

		if (dp && path_has_uart(dp, DevicePathSize(dp)))
			c->conout_serial = 1;
	}
	FreePool(handles);
}

/*
 * ConOut reaches the serial port through the firmware's terminal driver,
 * which wraps lines at its column count on some firmware. Records therefore
 * go to the port byte-exact, and to each non-serial text output directly,
 * never through ConOut: no record is broken and none is doubled.
 */
static void split_records(struct tp_console *c, EFI_SYSTEM_TABLE *st)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	c->rec_serial = c->serial;
	/* Human messages reach the port through ConOut already. */
	c->serial = NULL;
	if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol,
					&gEfiSimpleTextOutProtocolGuid, NULL, &n, &handles)))
		return;
	for (UINTN i = 0; i < n && c->n_text_out < TP_CON_MAX_TEXT_OUT; i++) {
		EFI_DEVICE_PATH *dp = DevicePathFromHandle(handles[i]);
		SIMPLE_TEXT_OUTPUT_INTERFACE *out;

		/* The splitters' virtual handles carry no device path. */
		if (!dp || handles[i] == st->ConsoleOutHandle ||
		    handles[i] == st->StandardErrorHandle || path_has_uart(dp, DevicePathSize(dp)))
			continue;
		if (!EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, handles[i],
						 &gEfiSimpleTextOutProtocolGuid, (void **)&out)))
			c->text_out[c->n_text_out++] = out;
	}
	FreePool(handles);
}

void tp_con_init(struct tp_console *c, EFI_SYSTEM_TABLE *st)
{
	UINTN var_size = 0, cols = 0, rows = 0;
	EFI_DEVICE_PATH *conout_var;

	c->conout = st->ConOut;
	c->serial = NULL;
	c->rec_serial = NULL;
	c->n_text_out = 0;
	c->columns = 0;

	if (c->conout && c->conout->Mode &&
	    !EFI_ERROR(uefi_call_wrapper(c->conout->QueryMode, 4, c->conout,
					 c->conout->Mode->Mode, &cols, &rows)))
		c->columns = (unsigned int)cols;

	/* UEFI 2.10, 3.3 Globally Defined Variables: ConOut is the device path
	 * (multi-instance) of the console output devices. */
	conout_var = LibGetVariableAndSize(L"ConOut", &gEfiGlobalVariableGuid, &var_size);
	if (conout_var)
		c->conout_serial = path_has_uart(conout_var, var_size);
	find_serial(c, conout_var, var_size);
	if (!conout_var)
		conout_serial_by_outputs(c);
	if (c->serial && c->conout_serial)
		split_records(c, st);
	if (conout_var)
		FreePool(conout_var);

	/* Whatever the firmware left on the line, start a fresh one. */
	write_text_out(c->conout, "\n", 1);
	write_serial(c->serial, "\n", 1);
}

void tp_con_msg(struct tp_console *c, const char *line)
{
	UINTN n = 0;

	while (line[n])
		n++;
	write_text_out(c->conout, "timeprobe: ", 11);
	write_text_out(c->conout, line, n);
	write_text_out(c->conout, "\n", 1);
	write_serial(c->serial, "timeprobe: ", 11);
	write_serial(c->serial, line, n);
	write_serial(c->serial, "\n", 1);
}

struct tp_rec *tp_con_rec(struct tp_console *c, const char *type)
{
	tp_rec_begin(&c->rec, type);
	return &c->rec;
}

struct tp_rec *tp_con_calib(struct tp_console *c, const char *ref)
{
	struct tp_rec *r = tp_con_rec(c, TP_CALIB_REC);

	tp_rec_str(r, "source", "stub");
	tp_rec_str(r, TP_CALIB_REF, ref);
	return r;
}

struct tp_rec *tp_con_calib_summary(struct tp_console *c, const char *chosen, uint64_t hz)
{
	struct tp_rec *r = tp_con_rec(c, "calib_summary");

	tp_rec_str(r, "source", "stub");
	if (chosen)
		tp_rec_str(r, "chosen", chosen);
	else
		tp_rec_null(r, "chosen");
	tp_rec_uint(r, "tsc_hz", hz);
	return r;
}

void tp_con_hex(struct tp_rec *r, const char *key, uint64_t v)
{
	char s[24];
	struct tp_buf b;

	tp_buf_init(&b, s, sizeof(s));
	tp_buf_puts(&b, "0x");
	tp_buf_puthex(&b, v, 1);
	tp_rec_str(r, key, s);
}

/* A copy of each record for the stub's file; the pool grows by doubling. */
static void keep(struct tp_console *c, const char *line, UINTN n)
{
	if (c->kept_len + n > c->kept_cap) {
		UINTN cap = c->kept_cap ? c->kept_cap : 64 * 1024;
		char *p;

		while (cap < c->kept_len + n)
			cap *= 2;
		p = AllocatePool(cap);
		if (!p) {
			c->kept_lost++;
			return;
		}
		if (c->kept) {
			CopyMem(p, c->kept, c->kept_len);
			FreePool(c->kept);
		}
		c->kept = p;
		c->kept_cap = cap;
	}
	CopyMem(c->kept + c->kept_len, (void *)line, n);
	c->kept_len += n;
}

void tp_con_emit(struct tp_console *c)
{
	const char *line = tp_rec_finish(&c->rec);

	if (!line) {
		tp_con_msg(c, "internal error: a record overflowed and was dropped");
		return;
	}
	keep(c, line, c->rec.len);
	if (c->rec_serial) {
		write_serial(c->rec_serial, line, c->rec.len);
		for (int i = 0; i < c->n_text_out; i++)
			write_text_out(c->text_out[i], line, c->rec.len);
		return;
	}
	write_text_out(c->conout, line, c->rec.len);
	write_serial(c->serial, line, c->rec.len);
}

void tp_con_error(struct tp_console *c, const char *key, const char *what, const char *file,
		  EFI_STATUS status)
{
	char m[256];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, what);
	if (file) {
		tp_buf_puts(&b, " ");
		tp_buf_puts(&b, file);
	}
	tp_buf_puts(&b, ": ");
	tp_buf_puts(&b, tp_efi_status_str(status));
	tp_buf_puts(&b, " (EFI status 0x");
	tp_buf_puthex(&b, status, 1);
	tp_buf_puts(&b, ")");
	tp_con_msg(c, m);

	r = tp_con_rec(c, "stub_error");
	tp_rec_str(r, "what", key);
	if (file)
		tp_rec_str(r, "file", file);
	tp_rec_str(r, "status", tp_efi_status_str(status));
	tp_rec_uint(r, "status_code", status);
	tp_con_emit(c);
}

struct tp_rec *tp_con_warn(struct tp_console *c, const char *key, const char *file,
			   const char *text)
{
	char m[256];
	struct tp_buf b;
	struct tp_rec *r;

	tp_buf_init(&b, m, sizeof(m));
	tp_buf_puts(&b, "WARNING: ");
	tp_buf_puts(&b, file);
	tp_buf_puts(&b, ": ");
	tp_buf_puts(&b, text);
	tp_con_msg(c, m);
	r = tp_con_rec(c, "stub_warning");
	tp_rec_str(r, "what", key);
	tp_rec_str(r, "file", file);
	return r;
}
