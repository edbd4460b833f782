;;; test_eglot.el --- Emacs Eglot on segc lsp -*- lexical-binding: t -*-
;; SPDX-License-Identifier: MIT
;;
;; Emacs Eglot (Debian 12: Emacs 28 with elpa-eglot and elpa-yaml-mode)
;; driven headless through its own functions, set up by the Emacs snippet
;; of the README, read from the README itself:
;;
;;   SEGC=build/segc tmp=DIR HOME=DIR emacs --batch -l tests/lsp/eglot/test_eglot.el
;;
;; It opens a clean sample (no diagnostics) and a broken spec (banks-cover,
;; where `segc check --diagnostics=json' puts it), hovers a size (hex and
;; IEC, in the plain text Eglot asks for without markdown-mode), completes
;; in `flags: [' and shuts the server down with eglot-shutdown.  It prints
;; ok/FAIL lines and "lsp-eglot: N passed, M failed" on standard output and
;; exits 0 only if nothing failed.  Every wait has a time limit
;; (LSP_TIMEOUT seconds, 20).

(require 'cl-lib)
(require 'subr-x)

(defvar segc-test-passed 0)
(defvar segc-test-failed 0)
(defconst segc-test-timeout (string-to-number (or (getenv "LSP_TIMEOUT") "20")))
(defconst segc-test-segc (expand-file-name (or (getenv "SEGC") (error "SEGC names the segc to test"))))
(defconst segc-test-root
  (expand-file-name "../../.." (file-name-directory (or load-file-name buffer-file-name))))
(defconst segc-test-dir
  (file-name-as-directory (expand-file-name "eglot" (or (getenv "tmp") temporary-file-directory))))

(defun segc-test-say (s) (princ (concat s "\n")))

(defun segc-test-check (cond what &optional why)
  (if cond
      (progn (setq segc-test-passed (1+ segc-test-passed)) (segc-test-say (concat "ok   " what)))
    (setq segc-test-failed (1+ segc-test-failed))
    (segc-test-say (concat "FAIL " what (if why (format ": %s" why) ""))))
  cond)

(defun segc-test-eq (got want what)
  (segc-test-check (equal got want) what (format "got %S, expected %S" got want)))

(defun segc-test-wait (pred)
  "Waits for PRED (process output and timers run meanwhile); its value, or nil."
  (let ((deadline (+ (float-time) segc-test-timeout)) v)
    (while (and (not (setq v (funcall pred))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    v))

(defun segc-test-command-loop ()
  "What the command loop does after a command, which --batch never runs:
post-command-hook (where eglot-ensure connects) and the redisplay's
window-configuration-change-hook (where Flymake starts in a buffer that
was not yet shown when its mode began)."
  (run-hooks 'post-command-hook)
  (run-window-configuration-change-hook))

(defun segc-test-flymake ()
  "The buffer's Flymake diagnostics once Eglot's backend has reported, or
the symbol `never' when it did not within the time limit."
  (if (segc-test-wait (lambda () (memq 'eglot-flymake-backend (flymake-reporting-backends))))
      (flymake-diagnostics)
    'never))

(defun segc-test-read (path)
  (with-temp-buffer (insert-file-contents path) (buffer-string)))

(defun segc-test-json (&rest args)
  "The JSON segc prints for ARGS."
  (with-temp-buffer
    (apply #'call-process segc-test-segc nil (list t nil) nil args)
    (json-parse-string (buffer-string) :object-type 'alist :array-type 'list)))

(defun segc-test-iec (v)
  "segc's IEC text for an exact quantity V."
  (cl-loop for (shift . unit) in '((40 . "TiB") (30 . "GiB") (20 . "MiB") (10 . "KiB"))
           when (and (>= v (ash 1 shift)) (zerop (mod v (ash 1 shift))))
           return (format "%d %s" (ash v (- shift)) unit)
           finally return (format "%d B" v)))

;; ---- the set-up: the README's snippet ----------------------------------------

(defun segc-test-readme-snippet ()
  "The README's Emacs set-up: the elisp block that configures
eglot-server-programs, in README.md or the page of doc/ it moved to."
  (cl-loop for file in (cons (expand-file-name "README.md" segc-test-root)
                             (directory-files (expand-file-name "doc" segc-test-root) t "\\.md\\'"))
           for text = (segc-test-read file)
           for start = 0
           thereis (cl-loop while (string-match "^```elisp\n\\(\\(?:.*\n\\)*?\\)```$" text start)
                            do (setq start (match-end 0))
                            when (string-match-p "eglot-server-programs" (match-string 1 text))
                            return (cons file (match-string 1 text)))))

;; What Emacs does at start (package.el activates Debian's elpa-* packages).
(package-initialize)
;; segc on exec-path, as the README asks.
(add-to-list 'exec-path (file-name-directory segc-test-segc))
(setenv "PATH" (concat (file-name-directory segc-test-segc) path-separator (getenv "PATH")))

(defvar segc-test-published (make-hash-table :test #'equal)
  "publishDiagnostics received, per file name.")

(cl-defun segc-test-run ()
  (let ((snippet (segc-test-readme-snippet)))
    (unless (segc-test-check snippet "the README has an Emacs snippet for eglot-server-programs")
      (cl-return-from segc-test-run))
    (eval (car (read-from-string (concat "(progn\n" (cdr snippet) "\n)"))) t))
  (segc-test-eq (executable-find "segc") segc-test-segc "segc is found on exec-path")
  ;; Count the diagnostics notifications as Eglot handles them.
  (advice-add 'eglot-handle-notification :after
              (lambda (_server method &rest args)
                (when (eq method 'textDocument/publishDiagnostics)
                  (let ((f (eglot--uri-to-path (plist-get args :uri))))
                    (puthash f (1+ (gethash f segc-test-published 0)) segc-test-published)))))
  (make-directory segc-test-dir t)
  (let* ((clean (expand-file-name "discrete.yaml" segc-test-dir))
         (broken (expand-file-name "banks-cover.yaml" segc-test-dir))
         server)
    (copy-file (expand-file-name "samples/discrete.yaml" segc-test-root) clean t)
    (copy-file (expand-file-name "tests/cases/rules/banks-cover.yaml" segc-test-root) broken t)

    ;; A clean sample: yaml-mode, eglot-ensure (which connects after the
    ;; command that visited the file), no diagnostics.
    (find-file clean)
    (segc-test-eq major-mode 'yaml-mode "a .yaml file opens in yaml-mode")
    (segc-test-command-loop)
    (setq server (segc-test-wait (lambda () (and eglot--managed-mode (eglot-current-server)))))
    (unless (segc-test-check server "eglot-ensure connects segc lsp to the buffer" "no server")
      (cl-return-from segc-test-run))
    (segc-test-eq (plist-get (eglot--server-info server) :name) "segc" "the server is segc")
    (segc-test-eq (assq 'yaml-mode eglot-server-programs) '(yaml-mode . ("segc" "lsp"))
                  "the README's entry is the first for yaml-mode in eglot-server-programs")
    (segc-test-check (segc-test-wait (lambda () (gethash clean segc-test-published)))
                     "diagnostics published for discrete.yaml")
    (segc-test-eq (segc-test-flymake) nil "discrete.yaml: Flymake has no diagnostics")

    ;; A hover on a size: its value in hex and IEC units, as plain text
    ;; (Eglot asks for it when markdown-mode is not installed).
    (goto-char (point-min))
    (re-search-forward "^    size: 2GiB")
    (backward-char 2)
    (let* ((model (segc-test-json "dump" "--json" clean))
           (gart (cl-find "gart" (alist-get 'segments model) :key (lambda (g) (alist-get 'name g)) :test #'equal))
           (hex (alist-get 'value (alist-get 'size gart)))
           (want (format "size of segment gart (Size)\n\n%s (%s)" hex
                         (segc-test-iec (string-to-number (substring hex 2) 16))))
           (got 'none))
      (eglot-hover-eldoc-function (lambda (info &rest _) (setq got info)))
      (segc-test-wait (lambda () (not (eq got 'none))))
      (segc-test-eq (and (stringp got) (substring-no-properties got)) want
                    "hover on gart's size: hex and IEC, no Markdown marks"))

    ;; Completion in `flags: [': the flags gart (an aperture) may write,
    ;; without the one written, the derived ones, or those an aperture may
    ;; never set.
    (goto-char (point-min))
    (re-search-forward "^    flags: \\[cache_coherent\\]")
    (replace-match "    flags: [cache_coherent, ")
    (let* ((capf (eglot-completion-at-point))
           (items (and capf (all-completions "" (nth 2 capf)))))
      (segc-test-check (member "direct_flip" items) "completion in flags: offers direct_flip" items)
      (segc-test-check (not (member "cache_coherent" items)) "and not cache_coherent, already written" items)
      (segc-test-check (cl-notany (lambda (f) (member f items)) '("aperture" "agp" "cpu_visible" "use_banking"))
                       "and no derived flag" items)
      (segc-test-check (not (member "populated_from_system_memory" items))
                       "and not populated_from_system_memory (memory segments only)" items))
    (set-buffer-modified-p nil)

    ;; A broken spec: banks-cover where segc check puts it.
    (let* ((before (gethash broken segc-test-published 0))
           (want (car (alist-get 'diagnostics (car (alist-get 'files (segc-test-json "check" "--diagnostics=json"
                                                                                       broken)))))))
      (find-file broken)
      (segc-test-command-loop)
      (segc-test-check (segc-test-wait (lambda () (> (gethash broken segc-test-published 0) before)))
                       "diagnostics published for banks-cover.yaml")
      (segc-test-eq (eglot-current-server) server "the second buffer shares the server")
      (let ((got (segc-test-flymake)))
        (segc-test-eq (if (listp got) (length got) got) 1 "banks-cover.yaml: Flymake has one diagnostic")
        (when (consp got)
          (let* ((d (car got))
                 (pos (lambda (p) (save-excursion (goto-char p) (list (line-number-at-pos) (1+ (current-column)))))))
            (segc-test-eq (flymake-diagnostic-type d) 'eglot-error "it is an error")
            (segc-test-eq (flymake-diagnostic-text d)
                          (format "segc [%s]: %s\nfix: %s" (alist-get 'rule want) (alist-get 'message want)
                                  (alist-get 'fix want))
                          "its text: source, code, check's message and fix")
            (segc-test-eq (append (funcall pos (flymake-diagnostic-beg d)) (funcall pos (flymake-diagnostic-end d)))
                          (list (alist-get 'line want) (alist-get 'column want)
                                (alist-get 'end_line want) (alist-get 'end_column want))
                          "at check's line and column")))))

    ;; Shut down: the shutdown request answered, exit sent, the server
    ;; gone with status 0.  Emacs 28's jsonrpc-shutdown deletes the process
    ;; (SIGKILL) right after eglot-shutdown sends `exit', without waiting
    ;; for it to end; the server is given until the timeout to end by
    ;; itself first, so that its own exit status is what is seen.
    (let ((proc (jsonrpc--process server)) (err nil))
      (advice-add 'jsonrpc-shutdown :before
                  (lambda (&rest _) (segc-test-wait (lambda () (not (process-live-p proc)))))
                  '((name . segc-test-wait-exit)))
      (condition-case e
          (eglot-shutdown server nil nil t)
        (error (setq err e)))
      (advice-remove 'jsonrpc-shutdown 'segc-test-wait-exit)
      (segc-test-eq err nil "eglot-shutdown: the shutdown request is answered (no error)")
      (segc-test-wait (lambda () (memq (process-status proc) '(exit signal))))
      (segc-test-eq (list (process-status proc) (process-exit-status proc)) '(exit 0)
                    "the server ends by itself with status 0")
      (with-current-buffer (jsonrpc-events-buffer server)
        (segc-test-check (save-excursion (goto-char (point-min)) (search-forward "(:jsonrpc \"2.0\" :method \"exit\"" nil t))
                         "Eglot sent exit" "no exit notification in its events buffer")))))

(condition-case e
    (segc-test-run)
  (error (segc-test-check nil "the test ran to its end" (error-message-string e))))
(segc-test-say (format "lsp-eglot: %d passed, %d failed" segc-test-passed segc-test-failed))
(kill-emacs (if (zerop segc-test-failed) 0 1))
