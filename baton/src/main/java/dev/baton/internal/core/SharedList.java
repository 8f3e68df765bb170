package dev.baton.internal.core;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list that other immutable values can share rather than copy. A conversation's
 * messages pass from the session to the prompt, the generate options, every model request, the
 * response and back to the session on each turn; each of those values keeps an immutable copy of
 * what it is given, and with {@link List#copyOf} that is a copy of the whole history, element by
 * element, every time. {@link #copyOf} instead hands a {@code SharedList} back as it is and copies
 * anything else in one bulk copy of references.
 *
 * <p>Immutable and thread-safe. Null elements are rejected, as {@link List#of} rejects them.
 *
 * @param <E> the element type
 */
public final class SharedList<E> extends AbstractList<E> implements RandomAccess {
  private static final SharedList<?> EMPTY = new SharedList<>(new Object[0]);
  private static final Class<?> ARRAYS_AS_LIST = Arrays.asList().getClass();

  private final Object[] elements;

  private SharedList(Object[] elements) {
    this.elements = elements;
  }

  /** The empty list. */
  @SuppressWarnings("unchecked")
  public static <E> List<E> of() {
    return (List<E>) EMPTY;
  }

  /**
   * An immutable list of the elements of {@code source}, in order: {@code source} itself when it is
   * a {@code SharedList}, otherwise a copy.
   *
   * @throws NullPointerException if an element is null
   */
  @SuppressWarnings("unchecked")
  public static <E> List<E> copyOf(Collection<? extends E> source) {
    if (source instanceof SharedList<? extends E> shared) {
      return (List<E>) shared;
    }
    Object[] elements = source.toArray();
    // ArrayList and Arrays.asList hand out a fresh Object[]; any other collection might keep the
    // array it returns, or type it narrower, so its array is copied before it is checked.
    if (source.getClass() != ArrayList.class && source.getClass() != ARRAYS_AS_LIST) {
      elements = Arrays.copyOf(elements, elements.length, Object[].class);
    }
    return new SharedList<>(requireNoNulls(elements));
  }

  /**
   * {@code list} with {@code element} added at its end, as a new list; {@code list} is unchanged.
   *
   * @throws NullPointerException if {@code element} or an element of {@code list} is null
   */
  public static <E> List<E> append(List<? extends E> list, E element) {
    Object[] source = ((SharedList<?>) copyOf(list)).elements;
    Object[] elements = Arrays.copyOf(source, source.length + 1);
    elements[source.length] = Objects.requireNonNull(element, "element");
    return new SharedList<>(elements);
  }

  private static Object[] requireNoNulls(Object[] elements) {
    for (Object element : elements) {
      Objects.requireNonNull(element, "element");
    }
    return elements;
  }

  @Override
  @SuppressWarnings("unchecked")
  public E get(int index) {
    Objects.checkIndex(index, elements.length);
    return (E) elements[index];
  }

  @Override
  public int size() {
    return elements.length;
  }

  @Override
  public Object[] toArray() {
    return elements.clone();
  }

  // A bulk copy: the inherited version copies element by element.
  @Override
  @SuppressWarnings({"unchecked", "NullAway"}) // the List contract ends a longer array with null
  public <T> T[] toArray(T[] target) {
    if (target.length < elements.length) {
      return (T[]) Arrays.copyOf(elements, elements.length, target.getClass());
    }
    System.arraycopy(elements, 0, target, 0, elements.length);
    if (target.length > elements.length) {
      target[elements.length] = null;
    }
    return target;
  }
}
