//! Integration tests of `dossier-docs`: every provider over real files in temp dirs (a fake
//! `CARGO_HOME`, `node_modules`, a virtualenv's `site-packages`, a Go module cache), and the
//! network provider against a server on loopback started by the test.

mod offline;
mod web;
