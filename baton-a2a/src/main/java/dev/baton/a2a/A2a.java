package dev.baton.a2a;

/** The entry points of Baton's A2A binding. */
public final class A2a {
  private A2a() {}
}
